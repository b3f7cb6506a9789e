import Foundation
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

extension KurentoMediaServerDouble {
    /// A listening socket on 127.0.0.1 and its accept thread, which closes the socket when it ends.
    final class Listener: Sendable {
        let fd: Int32
        let port: Int
        private let ended = DispatchSemaphore(value: 0)

        /// Binds `port` (0: an ephemeral one) with `SO_REUSEADDR`, so that ``resume()`` can bind it again.
        init(port: Int) throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw SilentTCPListener.SocketError(description: "socket: \(errno)") }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = UInt16(port).bigEndian
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
            }
            guard bound == 0, listen(fd, 64) == 0 else {
                let code = errno
                close(fd)
                throw SilentTCPListener.SocketError(description: "bind/listen 127.0.0.1:\(port): errno \(code)")
            }
            _ = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
            }
            self.fd = fd
            self.port = Int(UInt16(bigEndian: addr.sin_port))
        }

        /// Wakes the accept thread; with `wait`, returns once it has closed the socket (so that the port can be
        /// bound again). Never wait from the accept thread itself (a deinit may run there).
        func shutDown(wait: Bool) {
            shutdown(fd, Int32(SHUT_RDWR))
            if wait { ended.wait() }
        }

        /// Called by the accept thread when `accept` fails for good.
        func acceptEnded() {
            close(fd)
            ended.signal()
        }
    }

    /// Starts the accept thread of `listener`: each connection gets a reader thread of its own.
    func accept(on listener: Listener) {
        Thread.detachNewThread { [weak self] in
            while true {
                let fd = Glibc.accept(listener.fd, nil, nil)
                if fd < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    listener.acceptEnded()
                    return
                }
                guard let self, let socket = self.register(fd) else {
                    close(fd)
                    continue
                }
                Thread.detachNewThread { self.serve(socket) }
            }
        }
    }

    /// Adds an accepted connection to the table, in the current world's epoch; `nil` once stopped.
    private func register(_ fd: Int32) -> Socket? {
        state.withLock { s in
            guard !s.stopped else { return nil }
            s.nextSocketID += 1
            let socket = Socket(id: s.nextSocketID, epoch: s.world.epoch, fd: fd)
            s.sockets[socket.id] = socket
            return socket
        }
    }

    /// The reader thread of one connection: the handshake, the path check, then one request at a time.
    func serve(_ socket: Socket) {
        do {
            try socket.peer.completeHandshake()
        } catch {
            forget(socket)
            socket.readerStopped(close: true)
            return
        }
        // KMS: Kurento/kurento server/media-server/server/transport/websocket/WebSocketTransport.cpp (openHandler)
        // (WST7): the resource, query string stripped, must be the configured path ("kurento"); otherwise the
        // handshake completes and the socket is closed with 1002 protocol_error, reason "Invalid path".
        let path = socket.peer.requestTarget.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            .first.map(String.init) ?? ""
        guard path == "/kurento" else {
            socket.sendClose(1002, reason: "Invalid path")
            _ = socket.peer.waitForClose()
            forget(socket)
            socket.readerStopped(close: true)
            return
        }
        while let text = try? socket.peer.nextText() {
            guard let message = Self.parseJSON(text) else {
                // KMS: SM7 `ServerMethods::process` throws PARSE_ERROR outside `Handler::process`; WST7 `run()`
                // swallows it, and websocketpp (connection_impl.hpp `handle_read_frame`) only re-arms the read after
                // the handler returned, so this connection is never read again: no reply, the socket stays open and
                // still carries events (research §6, an inference from the code).
                state.withLock { $0.stalledConnections += 1 }
                socket.readerStopped(close: false)
                return
            }
            if let reply = handle(message, on: socket) { socket.send(reply) }
        }
        // The client closed (or the connection was cut): echo a close frame if it can still be written.
        socket.sendClose(1000, reason: "")
        forget(socket)
        socket.readerStopped(close: true)
    }

    /// Removes a connection from the table and its session pairing.
    /// KMS: WST7 `closeHandler` only erases the socket <-> session maps; objects and subscriptions stay.
    func forget(_ socket: Socket) {
        state.withLock { s in
            s.sockets[socket.id] = nil
            if let session = s.sessionOfSocket.removeValue(forKey: socket.id), s.socketOfSession[session] == socket.id {
                s.socketOfSession[session] = nil
            }
        }
    }
}
