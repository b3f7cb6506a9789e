public import JSONRPC

/// The result of a Tree request, by method (docs/wire-protocol.md#tree).
public enum TreeResult: Sendable, Hashable {
    /// `createTree` without an id: the id the server chose (sent wrapped as `value`).
    case created(treeId: String)
    /// `setTreeSource`: the server's SDP answer.
    case answer(String)
    /// `addTreeSink`: the sink's id and the server's SDP answer.
    case sink(TreeSinkResult)
    /// Every other method, and `createTree` with an id: `{}` (plus the injected `sessionId`).
    case empty

    /// Decodes the result of a `method` request; the injected `sessionId` is ignored.
    /// - Parameters:
    ///   - method: The method of the request this result answers.
    ///   - result: The response's `result`.
    ///   - requestedId: Whether the `createTree` request named its id (then `{}` is the whole answer).
    /// - Throws: ``RoomDecodingError`` naming the missing or mistyped member.
    public init(method: TreeMethod, result: JSONValue?, requestedId: Bool = false) throws(RoomDecodingError) {
        let context = "\(method.rawValue) result"
        switch method {
        case .createTree where !requestedId:
            self = .created(treeId: try RoomCoding.decode(CreatedTreeResult.self, from: result, context: context).value)
        case .setTreeSource:
            self = .answer(try RoomCoding.decode(TreeAnswerResult.self, from: result, context: context).answerSdp)
        case .addTreeSink:
            self = .sink(try RoomCoding.decode(TreeSinkResult.self, from: result, context: context))
        case .createTree, .releaseTree, .removeTreeSource, .removeTreeSink, .addIceCandidate:
            self = .empty
        }
    }

    /// The result a server handler returns; ``/JSONRPC/KurentoConventions`` then wraps a bare id as `value` and
    /// injects the `sessionId`.
    public var json: JSONValue {
        switch self {
        case .created(let treeId): .string(treeId)
        case .answer(let sdp): RoomCoding.encode(TreeAnswerResult(answerSdp: sdp))
        case .sink(let sink): RoomCoding.encode(sink)
        case .empty: [:]
        }
    }
}
