import Foundation
import SignalingSupport
#if canImport(Glibc)
import Glibc
#endif

extension KurentoMediaServerDouble {
    /// One accepted connection: its ``HostilePeer`` (frames), and who may close the file descriptor when.
    ///
    /// The reader thread owns the descriptor while it reads; once it has stopped (the client left, or the double
    /// stopped reading after unparsable JSON), whoever cuts the connection closes it. Writes (replies from the
    /// reader, events from the event queue) hold `sendLock`, and closing takes it too, so no write ever reaches a
    /// descriptor number that was closed and reused.
    final class Socket: @unchecked Sendable {
        // @unchecked: `flags` is only touched under `flagsLock`; the peer's frame writes are serialized by its
        // own lock and by `sendLock`; its reads happen on the reader thread only.
        let id: Int
        /// The world epoch the connection was accepted in.
        let epoch: Int
        let peer: HostilePeer
        private let fd: Int32
        private let sendLock = Lock()
        private let flagsLock = Lock()
        private var flags = (closed: false, reading: true)

        init(id: Int, epoch: Int, fd: Int32) {
            self.id = id
            self.epoch = epoch
            self.fd = fd
            peer = HostilePeer(fd: fd)
        }

        /// Sends one text frame; `false` once the connection is closed or the write failed.
        @discardableResult
        func send(_ text: String) -> Bool {
            sendLock.withLock {
                guard !flagsLock.withLock({ flags.closed }) else { return false }
                return (try? peer.sendText(text)) != nil
            }
        }

        /// Sends a close frame.
        func sendClose(_ code: UInt16, reason: String) {
            sendLock.withLock {
                guard !flagsLock.withLock({ flags.closed }) else { return }
                try? peer.sendClose(code, reason: reason)
            }
        }

        /// Drops the TCP connection without a close frame (RST). The reader, if still reading, then sees the end
        /// and closes the descriptor; otherwise it is closed here.
        func cut() {
            let closeNow = flagsLock.withLock { () -> Bool in
                guard !flags.closed else { return false }
                peer.dropConnection()
                return !flags.reading
            }
            if closeNow { close() }
        }

        /// The reader thread has stopped reading; `close` closes the descriptor too (the client left).
        func readerStopped(close closing: Bool) {
            flagsLock.withLock { flags.reading = false }
            if closing { close() }
        }

        /// Whether the descriptor is still open.
        var isOpen: Bool { flagsLock.withLock { !flags.closed } }

        private func close() {
            sendLock.withLock {
                let first = flagsLock.withLock { () -> Bool in
                    defer { flags.closed = true }
                    return !flags.closed
                }
                if first { Glibc.close(fd) }
            }
        }
    }
}
