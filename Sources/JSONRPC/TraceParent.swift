public import Logging
public import Tracing

/// A W3C Trace Context `traceparent` (`00-<trace id>-<span id>-<flags>`): the id that lets one request be followed
/// in the logs from the WebSocket upgrade to its handler (docs/operations.md#tracing).
///
/// A server takes the trace from the upgrade request's `traceparent` header, or starts one per connection; each
/// request then runs in a child span of it. The ids are kept as numbers and formatted only when a log line or a
/// header needs them, so a request pays no formatting when nothing logs.
public struct TraceParent: Sendable, Hashable, CustomStringConvertible {
    /// The trace id's high and low 64 bits (never both zero).
    public let traceHigh: UInt64, traceLow: UInt64
    /// The span id (never zero).
    public let spanID: UInt64
    /// The `sampled` flag.
    public let sampled: Bool

    /// A trace id and span id as given (callers make sure neither is zero).
    public init(traceHigh: UInt64, traceLow: UInt64, spanID: UInt64, sampled: Bool) {
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        self.spanID = spanID
        self.sampled = sampled
    }

    /// Parses a `traceparent` header value; nil when it is not a valid version-00 value (W3C Trace Context §3.2:
    /// lowercase hex, trace id and span id not all zeros). Later versions are read by their first four fields.
    public init?(header: String) {
        let fields = header.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count >= 4, fields[0].utf8.count == 2, fields[0] != "ff",
              fields[0] != "00" || fields.count == 4,
              fields[1].utf8.count == 32, fields[2].utf8.count == 16, fields[3].utf8.count == 2,
              let version = Self.hex(fields[0]), version <= 0xfe,
              let high = Self.hex(fields[1].prefix(16)), let low = Self.hex(fields[1].suffix(16)),
              let span = Self.hex(fields[2]), let flags = Self.hex(fields[3]),
              high != 0 || low != 0, span != 0
        else { return nil }
        self.init(traceHigh: high, traceLow: low, spanID: span, sampled: flags & 1 == 1)
    }

    /// A new trace with random ids (from the system CSPRNG).
    public static func random(sampled: Bool = false) -> TraceParent {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return TraceParent(traceHigh: high, traceLow: low == 0 && high == 0 ? 1 : low,
                           spanID: (generator.next() as UInt64) | 1, sampled: sampled)
    }

    /// The same trace with span id `spanID` (a child span of this one).
    public func child(spanID: UInt64) -> TraceParent {
        TraceParent(traceHigh: traceHigh, traceLow: traceLow, spanID: spanID == 0 ? 1 : spanID, sampled: sampled)
    }

    /// The 32 hex digits of the trace id.
    public var traceID: String { Self.format(traceHigh) + Self.format(traceLow) }

    /// The 16 hex digits of the span id.
    public var spanIDText: String { Self.format(spanID) }

    /// The `traceparent` header value.
    public var header: String { "00-\(traceID)-\(spanIDText)-\(sampled ? "01" : "00")" }

    public var description: String { header }

    /// `trace_id` and `span_id`, the names log pipelines expect.
    public var metadata: Logger.Metadata {
        ["trace_id": .stringConvertible(TraceIDText(value: self)), "span_id": .stringConvertible(SpanIDText(value: self))]
    }

    private static func hex(_ text: Substring) -> UInt64? {
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt64(text, radix: 16)
    }

    private static func format(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.utf8.count) + digits
    }
}

/// Formats the trace id only when a log handler prints it.
private struct TraceIDText: CustomStringConvertible, Sendable {
    let value: TraceParent
    var description: String { value.traceID }
}

/// Formats the span id only when a log handler prints it.
private struct SpanIDText: CustomStringConvertible, Sendable {
    let value: TraceParent
    var description: String { value.spanIDText }
}

/// The service-context key under which a request's ``TraceParent`` travels.
public enum TraceParentKey: ServiceContextKey {
    public typealias Value = TraceParent
    public static var nameOverride: String? { "traceparent" }
}

extension ServiceContext {
    /// The trace of the request this task serves, if any.
    public var traceParent: TraceParent? {
        get { self[TraceParentKey.self] }
        set { self[TraceParentKey.self] = newValue }
    }
}

extension Logger.MetadataProvider {
    /// Adds `trace_id` and `span_id` of the current task's ``TraceParent`` (`ServiceContext.current`) to every log
    /// line: bootstrap the logging system with it (`room-server` does) to follow one request across the log lines
    /// of the transport, the server and the handler.
    public static let traceParent = Logger.MetadataProvider {
        ServiceContext.current?.traceParent?.metadata ?? [:]
    }
}

/// Reads header values from an upgrade request's headers for the instrumentation system's `extract`.
struct HeaderExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key.lowercased()] }
}
