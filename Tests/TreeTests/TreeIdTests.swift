import JSONRPC
import JSONRPCWebSocket
import RoomProtocol
import RoomServer
import SignalingSupport
import TestSupport
import Testing
import TreeClient

/// Issue 30 item 7: tree ids are the server's. Whoever created `townhall` first used to own it; now a client-chosen
/// id needs ``RoomServer/Configuration/authorizeTreeId``, and without it the server refuses it with Tree error 2.
@Suite("Tree ids")
struct TreeIdTests {
    static func client(_ server: RoomServer, token: String? = nil) -> TreeClient {
        var configuration = TreeUser.patient
        configuration.authToken = token
        return TreeClient(url: server.treeURL, configuration: configuration)
    }

    @Test("by default a client-chosen id is refused with Tree error 2, and an id-less createTree gets the server's")
    func clientChosenIdsAreRefusedByDefault() async throws {
        let server = try await RoomServer.start(.init())
        let mallory = Self.client(server)
        let refusal = try await TreeErrorPathTests.treeError { try await mallory.createTree(id: "townhall") }
        #expect(refusal?.contains("tree ids are chosen by the server") == true, "\(refusal ?? "nil")")
        #expect(server.trees.isEmpty)
        let id = try await mallory.createTree()
        #expect(id.count == 36 && id != "townhall", "\(id)")
        #expect(Array(server.trees.keys) == [id])
        await mallory.disconnect()
        await server.shutdown()
    }

    @Test("the authorizer sees the id and the upgrade: the host's token may create townhall, mallory's may not")
    func theAuthorizerDecides() async throws {
        let seen = LockedValue<[String]>([])
        let server = try await RoomServer.start(.init(authorizeTreeId: { request in
            seen.withLock { $0.append(request.treeId) }
            return request.treeId == "townhall" && request.upgrade?.headers["authorization"] == "Bearer host-token"
        }))
        let mallory = Self.client(server, token: "mallory-token"), host = Self.client(server, token: "host-token")
        let refusal = try await TreeErrorPathTests.treeError { try await mallory.createTree(id: "townhall") }
        #expect(refusal == "Tree id 'townhall' is not allowed for this session", "\(refusal ?? "nil")")
        #expect(server.trees.isEmpty)
        #expect(try await host.createTree(id: "townhall") == "townhall")
        #expect(try await TreeErrorPathTests.treeError { try await mallory.releaseTree("townhall") }
                == "Tree 'townhall' belongs to another session")
        #expect(seen.withLock { $0 } == ["townhall", "townhall"])
        // An id-less tree needs no authorizer
        #expect(try await mallory.createTree().count == 36)
        await mallory.disconnect()
        await host.disconnect()
        await server.shutdown()
    }

    @Test("a client-chosen id with control, format or bidi characters is refused with -32602, before the authorizer")
    func idsFollowTheNameRules() async throws {
        let server = try await RoomServer.start(.init(authorizeTreeId: { _ in true }))
        let rpc = JSONRPCClient(url: server.treeURL, configuration: .init(retries: 0))
        for id in ["town\nhall", "town\u{202E}llah", "x\u{200B}"] {
            let error = try await TreeErrorPathTests.rpcError {
                _ = try await rpc.call("createTree", params: JSONValue.object(["treeId": .string(id)]))
            }
            #expect(error?.code == -32602, "\(id.debugDescription): \(String(describing: error))")
        }
        #expect(server.trees.isEmpty)
        await rpc.close()
        await server.shutdown()
    }
}
