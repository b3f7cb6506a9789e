/// Which endpoint of a tree a message is about: its source, or one of its sinks (docs/wire-protocol.md#tree: a message
/// without `sinkId` is about the source).
public enum TreeEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The tree's source (the sender).
    case source
    /// The sink with this id (a receiver).
    case sink(String)

    /// The `sinkId` on the wire; `nil` for the source.
    public var sinkId: String? {
        switch self {
        case .source: nil
        case .sink(let id): id
        }
    }

    public var description: String {
        switch self {
        case .source: "source"
        case .sink(let id): "sink \(id)"
        }
    }
}
