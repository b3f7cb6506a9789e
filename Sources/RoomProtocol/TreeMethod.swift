/// The client → server methods of the Kurento Tree protocol (docs/wire-protocol.md#tree), served on `/tree`. The raw
/// values are the wire names, as the Kurento Tree code spells them (its docs say `removeTree` and `remoteTreeSource`).
public enum TreeMethod: String, Sendable, Hashable, CaseIterable {
    /// Creates a tree: ``CreateTreeParams`` → `{}` with a given id, `{"value": id}` without one.
    case createTree
    /// Releases a tree with its source and sinks: ``TreeIDParams``, empty result.
    case releaseTree
    /// Sets the tree's source (the one sender): ``TreeOfferParams`` → ``TreeAnswerResult``.
    case setTreeSource
    /// Removes the tree's source: ``TreeIDParams``, empty result.
    case removeTreeSource
    /// Adds a sink (a receiver): ``TreeOfferParams`` → ``TreeSinkResult``.
    case addTreeSink
    /// Removes a sink: ``RemoveTreeSinkParams``, empty result.
    case removeTreeSink
    /// Trickles one client ICE candidate for the source or a sink: ``TreeIceCandidate``, empty result.
    case addIceCandidate
}

/// The server → client notifications of the Kurento Tree protocol (docs/wire-protocol.md#tree).
public enum TreeNotificationMethod: String, Sendable, Hashable, CaseIterable {
    /// A server ICE candidate for the source (no `sinkId`) or a sink: ``TreeIceCandidate``.
    case iceCandidate
    /// A tree endpoint failed at the media server and was dropped: ``TreeMediaError`` (ours only;
    /// docs/wire-protocol.md#media-errors).
    case mediaError
}
