import Foundation
import JSONRPC
import JSONRPCWebSocket
import SharedObjectServer
import SharedObjects
import SignalingSupport
import TestSupport
import Testing

/// A ``JSONRPCServer`` with a ``SharedObjectService`` installed, listening on 127.0.0.1 port 0.
struct SharedObjectServerFixture {
    let rpc: JSONRPCServer
    let service: SharedObjectService
    let listener: JSONRPCWebSocketListener
    var url: String { listener.url }

    static func start(_ configuration: SharedObjectService.Configuration = .init(),
                      conventions: JSONRPCServer.Conventions = .kurento) async throws -> SharedObjectServerFixture {
        let rpc = JSONRPCServer(configuration: .init(conventions: conventions))
        let service = SharedObjectService(configuration: configuration)
        service.install(on: rpc)
        let listener = try await rpc.listen(on: .init())
        return SharedObjectServerFixture(rpc: rpc, service: service, listener: listener)
    }

    func shutdown() async { await listener.shutdown() }
}

/// One client of a server: its JSON-RPC client, its shared objects, and its wire log.
struct SharedObjectPeer {
    let rpc: JSONRPCClient
    let shared: SharedObjectClient
    let log: WireLog

    init(url: String, log: WireLog = WireLog(), reconnect: JSONRPCClient.ReconnectPolicy? = nil) {
        self.log = log
        var configuration = JSONRPCClient.Configuration(retries: 0)
        if let reconnect { configuration.reconnect = reconnect }
        rpc = JSONRPCClient(transport: log.transport(WebSocketMessageTransport(url: url)),
                            configuration: configuration)
        shared = SharedObjectClient(client: rpc)
    }

    func close() async { await rpc.close() }
}

/// Reads `events` until `stop` accepts one, returning every event read (the accepted one last).
func collect(_ events: Broadcast<SharedObjectEvent>.Subscription, _ what: String, timeout: Duration = .seconds(10),
             until stop: @escaping @Sendable (SharedObjectEvent) -> Bool) async throws -> [SharedObjectEvent] {
    try await withDeadline(timeout, what) {
        var seen: [SharedObjectEvent] = []
        for try await event in events {
            seen.append(event)
            if stop(event) { return seen }
        }
        throw DeadlineExceeded(what: "\(what) (the events ended)", timeout: timeout)
    }
}

/// The shared-object error code of a failed call, or `nil` when it did not fail with a remote error.
func remoteCode(_ body: () async throws -> Void) async -> Int? {
    do {
        try await body()
        return nil
    } catch let error as RPCError {
        return error.remoteError?.code
    } catch {
        return nil
    }
}

/// The remote error of a call that must fail.
func remoteError(_ body: () async throws -> Void) async -> RPCErrorObject? {
    do {
        try await body()
        return nil
    } catch {
        return (error as? RPCError)?.remoteError
    }
}
