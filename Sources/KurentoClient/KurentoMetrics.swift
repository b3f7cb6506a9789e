import CoreMetrics
import JSONRPC

/// A ``KurentoClient``'s instruments (docs/operations.md#metrics), labelled `kms` with the client's name:
///
/// | name | type | labels | what |
/// |---|---|---|---|
/// | `kurento_request_duration_seconds` | histogram | `kms` | from a request's send to KMS's answer (a pipelined batch is one sample) |
/// | `kurento_objects` | gauge | `kms` | media objects this client created and has not released |
/// | `kurento_errors_total` | counter | `kms`, `kind` | `reply` (an error answer), `timeout`, `event` (an `Error` event), `session` (a lost session) |
struct KurentoMetrics: Sendable {
    enum Kind: String, CaseIterable { case reply, timeout, event, session }

    let duration: CoreMetrics.Timer
    /// Moved by differences, never set: concurrent creations and releases each report what they changed, in any
    /// order, and the sum stays right (a set would let a stale count overwrite a newer one).
    let objects: Meter
    let errors: [Kind: Counter]

    init?(_ metrics: SignalingMetrics, name: String) {
        guard metrics.isEnabled else { return nil }
        let label = [("kms", name)]
        duration = CoreMetrics.Timer(label: KurentoClient.MetricName.requestDuration, dimensions: label,
                                     factory: metrics.factory)
        objects = Meter(label: KurentoClient.MetricName.objects, dimensions: label, factory: metrics.factory)
        errors = Dictionary(uniqueKeysWithValues: Kind.allCases.map { kind in
            (kind, Counter(label: KurentoClient.MetricName.errors, dimensions: label + [("kind", kind.rawValue)],
                           factory: metrics.factory))
        })
    }

    /// The client's live objects changed by `delta` (created minus released).
    func objectsChanged(by delta: Int) {
        if delta > 0 { objects.increment(by: Double(delta)) } else if delta < 0 { objects.decrement(by: Double(-delta)) }
    }

    func count(_ error: KurentoError) {
        switch error {
        case .server: errors[.reply]?.increment()
        case .timeout: errors[.timeout]?.increment()
        default: break
        }
    }
}
