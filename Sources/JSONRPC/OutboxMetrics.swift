import CoreMetrics

/// The notification counters and the outbox depth, shared by every ``SessionOutbox`` of a server's sessions.
final class OutboxMetrics: Sendable {
    let queued: Counter
    let sent: Counter
    let dropped: Counter
    let depth: Meter
    let overflowCloses: Counter?

    init(_ metrics: SignalingMetrics, overflowCloses: Counter?) {
        typealias Name = SignalingMetrics.Name
        queued = Counter(label: Name.notificationsQueued, dimensions: [], factory: metrics.factory)
        sent = Counter(label: Name.notificationsSent, dimensions: [], factory: metrics.factory)
        dropped = Counter(label: Name.notificationsDropped, dimensions: [], factory: metrics.factory)
        depth = Meter(label: Name.outboxDepth, dimensions: [], factory: metrics.factory)
        self.overflowCloses = overflowCloses
    }
}
