import JSONRPC
import SignalingSupport
import TestSupport

/// A raw peer speaking JSON text, with a deadline on every receive.
struct RawPeer: Sendable {
    let connection: any MessageConnection

    func send(_ text: String) async throws { try await connection.send(text) }

    func receiveText() async throws -> String {
        try await withDeadline(.seconds(10), "a message") { try await connection.receive() }
    }

    func receive() async throws -> JSONValue { try JSONValue(parsing: try await receiveText()) }

    /// Sends `text` and returns the parsed reply.
    func exchange(_ text: String) async throws -> JSONValue {
        try await send(text)
        return try await receive()
    }

    /// A raw peer connected to `server`.
    static func connected(to server: JSONRPCServer) -> RawPeer {
        let (near, far) = LocalMessageConnection.pair()
        Task { await server.serve(far) }
        return RawPeer(connection: near)
    }
}



extension JSONRPCServer {
    /// A server with the methods of the JSON-RPC 2.0 specification's §7 examples, plus `echo`.
    static func specificationExamples(conventions: Conventions = .plain, clock: any SignalingClock = SystemClock())
        -> JSONRPCServer
    {
        let server = JSONRPCServer(configuration: .init(conventions: conventions, clock: clock))
        server.registerSpecificationExamples()
        return server
    }
}

/// Multiset equality for batch replies, whose order the specification leaves open (§6).
func sameElements(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    guard let l = lhs.arrayValue, let r = rhs.arrayValue else { return lhs == rhs }
    func counts(_ values: [JSONValue]) -> [JSONValue: Int] { values.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
    return counts(l) == counts(r)
}

/// Starts `count` concurrent calls of `hang` (ids 0..<count) and collects how each one completed.
func outcomesOfHangingCalls(_ client: JSONRPCClient, count: Int) async -> [Result<JSONValue, RPCError>] {
    await withTaskGroup(of: Result<JSONValue, RPCError>.self) { group in
        for i in 0..<count {
            group.addTask {
                do { return .success(try await client.call("hang", params: [.int(i)])) } catch {
                    return .failure(error as? RPCError ?? .invalidResponse("\(error)"))
                }
            }
        }
        return await group.reduce(into: []) { $0.append($1) }
    }
}
