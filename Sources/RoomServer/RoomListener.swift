import JSONRPC
import JSONRPCWebSocket
import SignalingSupport

/// The WebSocket side of a ``RoomServer`` made by ``RoomServer/start(_:)``: the JSON-RPC listener, and who waits
/// in ``RoomServer/run()`` for it to stop.
final class RoomListener: Sendable {
    private struct State {
        var listener: JSONRPCWebSocketListener?
        var baseURL = ""
        var httpBaseURL = ""
        var stopped = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = LockedValue(State())

    func attach(_ listener: JSONRPCWebSocketListener) {
        state.withLock {
            $0.listener = listener
            $0.baseURL = listener.webSocketServer.url
            $0.httpBaseURL = listener.webSocketServer.httpURL
        }
    }

    /// `ws://host:port`, without a path.
    var baseURL: String { state.withLock { $0.baseURL } }

    /// `http://host:port` (`https` with TLS), without a path.
    var httpBaseURL: String { state.withLock { $0.httpBaseURL } }

    /// The listening WebSocket server; nil once shut down.
    var webSocketServer: WebSocketServer? { state.withLock { $0.listener?.webSocketServer } }

    /// Stops listening and closes every session's socket with 1001, waiting at most `timeout` for the handlers still
    /// running (``/JSONRPCWebSocket/JSONRPCWebSocketListener/shutdown(code:reason:timeout:)``); idempotent.
    func shutdown(timeout: Duration) async {
        let listener = state.withLock { s -> JSONRPCWebSocketListener? in
            defer { s.listener = nil }
            return s.listener
        }
        await listener?.shutdown(code: .goingAway, reason: "server shutting down", timeout: timeout)
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.stopped = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``shutdown()`` has finished.
    func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let stopped = state.withLock { s -> Bool in
                if !s.stopped { s.waiters.append(continuation) }
                return s.stopped
            }
            if stopped { continuation.resume() }
        }
    }
}
