import Foundation
import JSONRPC
import JSONRPCWebSocket
import SharedObjectServer
import SharedObjects
import SignalingSupport
import TestSupport
import Testing

/// Every text one client's connections sent and received, in order, for the schema witness (docs/testing.md#witnesses).
final class WireLog: Sendable {
    enum Direction: String, Sendable { case sent, received }
    let entries = LockedValue<[(direction: Direction, text: String)]>([])
    func record(_ direction: Direction, _ text: String) { entries.withLock { $0.append((direction, text)) } }
}

/// A WebSocket transport whose connections copy every message into a ``WireLog``.
struct RecordingTransport: MessageTransport {
    let inner: WebSocketMessageTransport
    let log: WireLog

    func connect() async throws -> any MessageConnection {
        RecordingConnection(inner: try await inner.connect(), log: log)
    }
}

struct RecordingConnection: MessageConnection {
    let inner: any MessageConnection
    let log: WireLog

    func enqueue(_ text: String, whenWritten: (@Sendable (ConnectionEnd?) -> Void)?) throws {
        log.record(.sent, text)
        try inner.enqueue(text, whenWritten: whenWritten)
    }

    func receive() async throws -> String {
        let text = try await inner.receive()
        log.record(.received, text)
        return text
    }

    func close(code: UInt16, reason: String) async { await inner.close(code: code, reason: reason) }
}

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
        rpc = JSONRPCClient(transport: RecordingTransport(inner: WebSocketMessageTransport(url: url), log: log),
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
