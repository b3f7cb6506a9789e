public import RoomServer
public import ServiceLifecycle

/// A started ``/RoomServer/RoomServer`` as a swift-service-lifecycle `Service`, so that it runs in a `ServiceGroup`
/// beside the application's other services and shuts down gracefully on SIGTERM.
///
/// ```swift
/// let server = try await RoomServer.start(configuration)
/// let group = ServiceGroup(configuration: .init(
///     services: [RoomServerService(server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// ```
///
/// ``run()`` returns when the first of these happens, and the server is shut down (``/RoomServer/RoomServer/shutdown()``:
/// drain, 1001 to every session, media released, cluster left, all within the server's shutdown timeout) before it
/// returns, whichever it was:
/// - the group triggers a graceful shutdown (a signal it was told to watch, or `triggerGracefulShutdown()`);
/// - the task running it is cancelled;
/// - the server stops by itself (someone called `shutdown()` on it).
///
/// The server is started before the group runs, so its bound URLs (ephemeral ports included) are known while the
/// services are assembled.
public struct RoomServerService: Service {
    /// The server this service runs and shuts down.
    public let server: RoomServer

    /// Runs `server`, which ``/RoomServer/RoomServer/start(_:)`` has started.
    public init(_ server: RoomServer) {
        self.server = server
    }

    /// Serves until a graceful shutdown, a cancellation or the server's own stop, then shuts the server down.
    ///
    /// Both a graceful shutdown and a cancellation go through ``/RoomServer/RoomServer/shutdown()``, in a task of its
    /// own so that this task's cancellation does not cut its waits short: media and cluster claims are released
    /// before `run()` returns. On a graceful shutdown the server keeps serving through its drain period (`/readyz`
    /// answering 503); on a cancellation the listener stops at once, as ``/RoomServer/RoomServer/run()`` does when
    /// cancelled.
    public func run() async {
        let server = server
        await withTaskGroup(of: Ending.self) { group in
            group.addTask {
                await server.run()
                return .serverStopped
            }
            group.addTask {
                do {
                    try await gracefulShutdown()
                    return .graceful
                } catch {
                    return .cancelled
                }
            }
            switch await group.next() ?? .serverStopped {
            case .serverStopped where Task.isCancelled:
                // This task was cancelled and the server's `run()` stopped first: the shutdown that began then is
                // awaited to its end (a second call returns when everything has stopped).
                group.cancelAll()
                await Task { await server.shutdown() }.value
            case .serverStopped:
                // Stopped by someone else's `shutdown()`, which is theirs to finish.
                group.cancelAll()
            case .graceful, .cancelled:
                // `run()` keeps serving through the drain and returns once the listener stopped. The shutdown
                // runs in a task of its own, so that this task's cancellation does not cut its waits short.
                await Task { await server.shutdown() }.value
            }
        }
    }

    /// Why ``run()`` stopped serving.
    private enum Ending: Sendable {
        case serverStopped, graceful, cancelled
    }
}
