import Foundation
#if canImport(Glibc)
import Glibc
public import SignalingSupport
#endif

/// A scriptable WebSocket server on 127.0.0.1 written on raw TCP, for tests of how clients survive a hostile
/// server (docs/testing.md#fault-injection). It completes real RFC 6455 handshakes, then runs `script` for each
/// accepted connection on a thread of its own, with a ``HostilePeer`` that can send what our own `WebSocketServer`
/// refuses to: invalid UTF-8 text, binary frames, a 20 MB frame header, floods, abrupt closes.
public final class HostileWebSocketServer: Sendable {
    private let fd: Int32
    /// The ephemeral port it listens on.
    public let port: Int
    private let live = LockedValue<Set<Int32>>([])
    /// Errors the scripts threw (a test may check it is empty).
    public let scriptErrors = LockedValue<[String]>([])
    /// The number of connections accepted so far.
    public let accepted = LockedValue(0)

    /// Starts listening; every connection gets a handshake, then `script`. The socket is closed when the
    /// script returns.
    public init(script: @escaping @Sendable (HostilePeer) throws -> Void) throws {
        (fd, port) = try SilentTCPListener.listeningSocket(backlog: 64)
        let (fd, live, errors, accepted) = (fd, live, scriptErrors, accepted)
        Thread.detachNewThread {
            while true {
                let connection = accept(fd, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return  // shut down
                }
                accepted.withLock { $0 += 1 }
                live.withLock { _ = $0.insert(connection) }
                Thread.detachNewThread {
                    let peer = HostilePeer(fd: connection)
                    do {
                        try peer.completeHandshake()
                        try script(peer)
                    } catch {
                        errors.withLock { $0.append("\(error)") }
                    }
                    live.withLock { _ = $0.remove(connection) }
                    close(connection)
                }
            }
        }
    }

    /// `ws://127.0.0.1:<port><path>`.
    public func url(_ path: String = "/room") -> String { "ws://127.0.0.1:\(port)\(path)" }

    /// Stops listening and cuts every open connection (their scripts then fail on their next read or write).
    public func stop() {
        shutdown(fd, Int32(SHUT_RDWR))
        for connection in (live.withLock { $0 }) { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    deinit {
        stop()
        close(fd)
    }
}
