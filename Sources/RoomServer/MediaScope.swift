/// What a media endpoint belongs to: a room, or a tree. A media server keeps one pipeline per scope
/// (``KurentoMediaBackend``), and ``MediaBackend/release(scope:)`` ends it.
public struct MediaScope: Sendable, Hashable, CustomStringConvertible {
    /// Rooms and trees are named apart: a room and a tree may share a name.
    public enum Kind: String, Sendable, Hashable {
        /// A Room protocol room.
        case room
        /// A Tree protocol tree.
        case tree
    }

    /// A room or a tree.
    public var kind: Kind
    /// The room's name or the tree's id.
    public var name: String

    /// Creates a scope.
    public init(_ kind: Kind, _ name: String) {
        self.kind = kind
        self.name = name
    }

    /// The scope of room `name`.
    public static func room(_ name: String) -> MediaScope { MediaScope(.room, name) }
    /// The scope of tree `id`.
    public static func tree(_ id: String) -> MediaScope { MediaScope(.tree, id) }

    public var description: String { "\(kind.rawValue) \(name)" }
}

extension MediaEndpointID {
    /// The room or tree the endpoint belongs to. Tree endpoints are owned by `_source` and `_sink_<id>`, names a room
    /// user can never have (docs/wire-protocol.md#room-naming).
    public var scope: MediaScope {
        owner.hasPrefix("_") ? .tree(room) : .room(room)
    }
}
