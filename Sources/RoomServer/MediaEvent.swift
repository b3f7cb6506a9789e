import SignalingSupport

/// What a ``MediaBackend`` reports after one of its calls returned (``MediaBackend/attach(_:)``): candidates a media
/// server trickles, failures, and media flow.
public enum MediaEvent: Sendable, Hashable {
    /// A server ICE candidate of `endpoint`, found after its `create…` call returned: the server sends it to the
    /// endpoint's owner as an `iceCandidate` notification, while the endpoint exists.
    case candidate(MediaCandidate, of: MediaEndpointID)
    /// `endpoint` failed (its media element raised an error, or an operation on it failed after the fact). The server
    /// drops it as an unpublish or unsubscribe would (others see `participantUnpublished` when it was a publisher),
    /// releases it, and tells its owner with `mediaError` (docs/wire-protocol.md#media-errors).
    case endpointFailed(MediaEndpointID, reason: String)
    /// Every endpoint of a room or tree failed at once: its pipeline raised an error, or the media server lost it
    /// (restarted, unreachable for good). Each endpoint is dropped as for ``endpointFailed(_:reason:)``.
    case scopeFailed(MediaScope, reason: String)
    /// Media of one kind started or stopped flowing on `endpoint` (operators see it: docs/operations.md#rooms).
    case flow(MediaEndpointID, MediaFlow)
}

/// Whether media of one kind flows on an endpoint, as a media server reports it (KMS's `MediaFlowInStateChanged` and
/// `MediaFlowOutStateChanged`).
public struct MediaFlow: Sendable, Hashable {
    /// Which way.
    public enum Direction: String, Sendable, Hashable, Codable {
        /// From the endpoint's client into the media server (a publisher's stream).
        case inbound
        /// From the media server to the endpoint's client (a subscription, or a publisher's loopback).
        case outbound
    }

    /// Which way the media goes.
    public var direction: Direction
    /// `audio` or `video`.
    public var kind: String
    /// Whether it flows now.
    public var flowing: Bool

    /// Creates a flow report.
    public init(direction: Direction, kind: String, flowing: Bool) {
        self.direction = direction
        self.kind = kind
        self.flowing = flowing
    }
}

/// Where a ``MediaBackend`` reports ``MediaEvent``s: every ``RoomServer`` that uses the backend attaches one
/// (``MediaBackend/attach(_:)``). Reporting never blocks and may happen on any thread; an event about an endpoint a
/// server does not know (any more) is ignored by it.
public final class MediaEventSink: Sendable {
    private let handler: @Sendable (MediaEvent) -> Void

    /// A sink that hands every event to `handler` (quick, on the reporting thread).
    public init(_ handler: @escaping @Sendable (MediaEvent) -> Void) {
        self.handler = handler
    }

    /// Reports `event`.
    public func report(_ event: MediaEvent) { handler(event) }
}

/// The sinks a backend reports to: every server that attached one.
public final class MediaEventSinks: Sendable {
    private let sinks = LockedValue<[MediaEventSink]>([])

    /// No sinks yet.
    public init() {}

    /// Adds `sink` (``MediaBackend/attach(_:)``).
    public func attach(_ sink: MediaEventSink) { sinks.withLock { $0.append(sink) } }

    /// Reports `event` to every sink.
    public func report(_ event: MediaEvent) {
        for sink in sinks.withLock({ $0 }) { sink.report(event) }
    }
}
