import SignalingSupport
import Tracing

/// How a server continues its callers' traces (docs/operations.md#tracing).
extension JSONRPCServer {
    /// The service context a connection is served in: whatever the bootstrapped instrument extracts from the
    /// opening headers (a real tracer continues the caller's trace), and the ``TraceParent`` our log lines carry:
    /// a new span in the trace of a valid `traceparent` header, or a new trace.
    static func traceContext(of connection: any MessageConnection) -> ServiceContext {
        let headers = connection.openingHeaders
        var context = ServiceContext.topLevel
        if !headers.isEmpty { InstrumentationSystem.instrument.extract(headers, into: &context, using: HeaderExtractor()) }
        // The connection is a span of its own in the caller's trace (or in a new one).
        let fresh = TraceParent.random()
        context.traceParent = headers["traceparent"].flatMap(TraceParent.init(header:))?.child(spanID: fresh.spanID)
            ?? fresh
        return context
    }

    /// A request's span id: the next value of a SplitMix64 generator seeded with the connection's span and the
    /// request id, so the same request always gets the same span without a counter or a random draw on the call
    /// path (distinct seeds give distinct values).
    static func spanID(of id: RequestID?, under parent: TraceParent) -> UInt64 {
        var mix = SeededRandomNumberGenerator(seed: parent.spanID ^ Self.number(of: id))
        return mix.next()
    }

    private static func number(of id: RequestID?) -> UInt64 {
        switch id {
        case .number(let n)?: UInt64(bitPattern: Int64(n))
        case .string(let s)?, .numberText(let s)?: UInt64(bitPattern: Int64(s.hashValue))
        case .null?, nil: 0
        }
    }
}
