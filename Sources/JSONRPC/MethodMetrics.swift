import CoreMetrics
import Dispatch
import SignalingSupport

/// One method's instruments: its `result` counter and latency timer, made once; its error counters, by code,
/// made on the first error with that code (at most ``maxCodes`` of them, then `code="other"`).
final class MethodMetrics: Sendable {
    let method: String
    private let factory: any MetricsFactory
    private let results: Counter
    private let duration: CoreMetrics.Timer?
    /// Error counters by code (``RPCErrorObject/handlerTimedOutCode`` is the `timeout` outcome).
    private let failures = LockedValue([Int: Counter]())
    /// Distinct error codes counted per method before the rest share `code="other"`.
    static let maxCodes = 32

    init(_ method: String, _ metrics: SignalingMetrics, timed: Bool) {
        self.method = method
        factory = metrics.factory
        results = Counter(label: SignalingMetrics.Name.requests, dimensions: [("method", method), ("outcome", "result")],
                          factory: factory)
        duration = timed
            ? CoreMetrics.Timer(label: SignalingMetrics.Name.requestDuration, dimensions: [("method", method)],
                                factory: factory)
            : nil
    }

    /// Counts `response` by its outcome.
    func count(_ response: RPCResponse) {
        switch response.outcome {
        case .success: results.increment()
        case .failure(let error): failure(error.code).increment()
        }
    }

    /// Counts `response` and records the time since `start` (``now()``).
    func finish(_ response: RPCResponse, startedAt start: UInt64) {
        duration?.recordNanoseconds(Int64(truncatingIfNeeded: Self.now() &- start))
        count(response)
    }

    /// Monotonic nanoseconds.
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private func failure(_ code: Int) -> Counter {
        failures.withLock { counters in
            if let counter = counters[code] { return counter }
            let key = counters.count < Self.maxCodes ? code : Int.min
            if let counter = counters[key] { return counter }
            let dimensions: [(String, String)] = switch key {
            case RPCErrorObject.handlerTimedOutCode: [("method", method), ("outcome", "timeout")]
            case Int.min: [("method", method), ("outcome", "error"), ("code", "other")]
            default: [("method", method), ("outcome", "error"), ("code", String(code))]
            }
            let counter = Counter(label: SignalingMetrics.Name.requests, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }

}
