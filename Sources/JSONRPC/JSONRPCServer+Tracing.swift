import Tracing

/// How a server continues its callers' traces (docs/operations.md#tracing).
extension JSONRPCServer {
    /// The service context a connection is served in: whatever the bootstrapped instrument extracts from the
    /// opening headers (a real tracer continues the caller's trace), and the ``TraceParent`` our log lines carry,
    /// taken from a valid `traceparent` header or started afresh.
    static func traceContext(of connection: any MessageConnection) -> ServiceContext {
        let headers = connection.openingHeaders
        var context = ServiceContext.topLevel
        if !headers.isEmpty { InstrumentationSystem.instrument.extract(headers, into: &context, using: HeaderExtractor()) }
        context.traceParent = headers["traceparent"].flatMap(TraceParent.init(header:)) ?? .random()
        return context
    }

    /// A request's span id: a mix (SplitMix64's finalizer) of the connection's span and the request id, so the
    /// same request always gets the same span without a counter or a random draw on the call path.
    static func spanID(of id: RequestID?, under parent: TraceParent) -> UInt64 {
        var z = parent.spanID &+ 0x9E37_79B9_7F4A_7C15 &* (Self.number(of: id) &+ 1)
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func number(of id: RequestID?) -> UInt64 {
        switch id {
        case .number(let n)?: UInt64(bitPattern: Int64(n))
        case .string(let s)?, .numberText(let s)?: UInt64(bitPattern: Int64(s.hashValue))
        case .null?, nil: 0
        }
    }
}
