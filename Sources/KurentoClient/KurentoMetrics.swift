import CoreMetrics
import JSONRPC

/// A ``KurentoClient``'s instruments (docs/operations.md#metrics), labelled `kms` with the client's name:
///
/// | name | type | labels | what |
/// |---|---|---|---|
/// | `kurento_request_duration_seconds` | histogram | `kms` | from a request's send to KMS's answer |
/// | `kurento_objects` | gauge | `kms` | media objects this client created and has not released |
/// | `kurento_errors_total` | counter | `kms`, `kind` | `reply` (an error answer), `timeout`, `event` (an `Error` event), `session` (a lost session) |
struct KurentoMetrics: Sendable {
    enum Kind: String, CaseIterable { case reply, timeout, event, session }

    let duration: CoreMetrics.Timer
    let objects: Gauge
    let errors: [Kind: Counter]

    init?(_ metrics: SignalingMetrics, name: String) {
        guard metrics.isEnabled else { return nil }
        let label = [("kms", name)]
        duration = CoreMetrics.Timer(label: "kurento_request_duration_seconds", dimensions: label, factory: metrics.factory)
        objects = Gauge(label: "kurento_objects", dimensions: label, factory: metrics.factory)
        errors = Dictionary(uniqueKeysWithValues: Kind.allCases.map { kind in
            (kind, Counter(label: "kurento_errors_total", dimensions: label + [("kind", kind.rawValue)],
                           factory: metrics.factory))
        })
    }

    func count(_ error: KurentoError) {
        switch error {
        case .server: errors[.reply]?.increment()
        case .timeout: errors[.timeout]?.increment()
        default: break
        }
    }
}
