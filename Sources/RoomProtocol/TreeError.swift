public import JSONRPC

/// A Tree error (docs/wire-protocol.md#tree): the server's `TreeException` (code 2) or an uncaught exception (-1), with
/// the server's message. Unknown methods get -32601 from our server (Kurento's code 1), and bad params -32602: those
/// stay ``/JSONRPC/RPCError``s.
public struct TreeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Tree error codes.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// -1: an uncaught server exception.
        case uncaughtException = -1
        /// 1: Kurento's "Unrecognized method" (our server answers -32601 instead).
        case unrecognizedMethod = 1
        /// 2: `TreeException`: unknown tree or sink, duplicate id, no source, another session's tree or sink.
        case treeException = 2
    }

    /// The code.
    public var code: Code
    /// The server's message.
    public var message: String
    /// The error's `data` (a Kurento server puts the `sessionId` there, docs/wire-protocol.md#kurento-conventions).
    public var data: JSONValue?

    /// Creates a Tree error.
    public init(_ code: Code, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    /// The Tree error an error object carries; `nil` when its code is not a Tree code.
    public init?(_ error: RPCErrorObject) {
        guard let code = Code(rawValue: error.code) else { return nil }
        self.init(code, message: error.message, data: error.data)
    }

    /// The Tree error a failed call carries; `nil` for local failures and other codes.
    public init?(_ error: RPCError) {
        guard let remote = error.remoteError else { return nil }
        self.init(remote)
    }

    /// The JSON-RPC error object a server answers with.
    public var errorObject: RPCErrorObject { RPCErrorObject(code: code.rawValue, message: message, data: data) }

    public var description: String { "tree error \(code.rawValue): \(message)" }
}

extension TreeError {
    /// 2: no tree has this id.
    public static func unknownTree(_ treeId: String) -> TreeError {
        TreeError(.treeException, message: "Tree '\(treeId)' not found")
    }

    /// 2: `createTree` with an id that exists.
    public static func existingTree(_ treeId: String) -> TreeError {
        TreeError(.treeException, message: "Tree '\(treeId)' already exists")
    }

    /// 2: the tree has no (ready) source.
    public static func noSource(_ treeId: String) -> TreeError {
        TreeError(.treeException, message: "Tree '\(treeId)' has no source")
    }

    /// 2: the tree has a source already.
    public static func existingSource(_ treeId: String) -> TreeError {
        TreeError(.treeException, message: "Tree '\(treeId)' already has a source")
    }

    /// 2: the tree has no such sink.
    public static func unknownSink(_ sinkId: String, treeId: String) -> TreeError {
        TreeError(.treeException, message: "Sink '\(sinkId)' not found in tree '\(treeId)'")
    }

    /// 2: the caller's session is not the owner of `what`.
    public static func notOwner(_ what: String) -> TreeError {
        TreeError(.treeException, message: "\(what) belongs to another session")
    }
}
