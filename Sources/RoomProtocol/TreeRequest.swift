public import JSONRPC

/// One Tree request with its typed params: what a server dispatches on and what a client sends.
///
/// ``init(method:params:)`` rejects absent or mistyped required params with a ``RoomDecodingError`` naming the
/// param (a server answers -32602 with ``RoomDecodingError/invalidParams``). Unknown members are ignored.
public enum TreeRequest: Sendable, Hashable {
    /// `createTree`.
    case createTree(CreateTreeParams)
    /// `releaseTree`.
    case releaseTree(TreeIDParams)
    /// `setTreeSource`.
    case setTreeSource(TreeOfferParams)
    /// `removeTreeSource`.
    case removeTreeSource(TreeIDParams)
    /// `addTreeSink`.
    case addTreeSink(TreeOfferParams)
    /// `removeTreeSink`.
    case removeTreeSink(RemoveTreeSinkParams)
    /// `addIceCandidate`.
    case addIceCandidate(TreeIceCandidate)

    /// Decodes the params of `method`; absent params decode like `{}` for `createTree` only.
    /// - Throws: ``RoomDecodingError`` naming the first missing or mistyped param.
    public init(method: TreeMethod, params: JSONValue?) throws(RoomDecodingError) {
        func decode<T: Decodable>(_ type: T.Type, _ json: JSONValue? = params) throws(RoomDecodingError) -> T {
            try RoomCoding.decode(type, from: json, context: "\(method.rawValue) params")
        }
        switch method {
        case .createTree: self = .createTree(try decode(CreateTreeParams.self, params ?? [:]))
        case .releaseTree: self = .releaseTree(try decode(TreeIDParams.self))
        case .setTreeSource: self = .setTreeSource(try decode(TreeOfferParams.self))
        case .removeTreeSource: self = .removeTreeSource(try decode(TreeIDParams.self))
        case .addTreeSink: self = .addTreeSink(try decode(TreeOfferParams.self))
        case .removeTreeSink: self = .removeTreeSink(try decode(RemoveTreeSinkParams.self))
        case .addIceCandidate: self = .addIceCandidate(try decode(TreeIceCandidate.self))
        }
    }

    /// The method.
    public var method: TreeMethod {
        switch self {
        case .createTree: .createTree
        case .releaseTree: .releaseTree
        case .setTreeSource: .setTreeSource
        case .removeTreeSource: .removeTreeSource
        case .addTreeSink: .addTreeSink
        case .removeTreeSink: .removeTreeSink
        case .addIceCandidate: .addIceCandidate
        }
    }

    /// The params as sent (`createTree` without an id sends `{}`).
    public var params: JSONValue {
        switch self {
        case .createTree(let p): RoomCoding.encode(p)
        case .releaseTree(let p), .removeTreeSource(let p): RoomCoding.encode(p)
        case .setTreeSource(let p), .addTreeSink(let p): RoomCoding.encode(p)
        case .removeTreeSink(let p): RoomCoding.encode(p)
        case .addIceCandidate(let p): RoomCoding.encode(p)
        }
    }
}
