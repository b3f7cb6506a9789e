import TestSupport
import WebSocketTransport

/// An echo server for the transport tests: every message goes back to its sender, in order.
struct EchoServer {
    let server: WebSocketServer
    let task: Task<Void, Never>

    static func start(
        _ configuration: WebSocketServerConfiguration = .init(), loop: WebSocketEventLoop = .shared
    ) async throws -> EchoServer {
        let server = try await WebSocketServer.start(configuration, loop: loop)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for await connection in server.connections {
                    group.addTask {
                        do {
                            for try await message in connection.messages { try await connection.send(message) }
                        } catch {}
                    }
                }
            }
        }
        return EchoServer(server: server, task: task)
    }

    var url: String { server.url + "/echo" }

    func stop() async {
        await server.shutdown()
        await task.value
    }
}
