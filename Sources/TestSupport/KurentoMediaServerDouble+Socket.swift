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
        // @unchecked: the peer's frame writes are serialized by its own lock and by `sendLock`; its reads happen on
        // the reader thread only.
        let id: Int
        /// The world epoch the connection was accepted in.
        let epoch: Int
        let peer: HostilePeer
        private let fd: Int32
        private let sendLock = LockedValue(())
        private let flags = LockedValue((closed: false, reading: true))

        init(id: Int, epoch: Int, fd: Int32) {
            self.id = id
            self.epoch = epoch
            self.fd = fd
            peer = HostilePeer(fd: fd)
        }

        /// Sends one text frame; `false` once the connection is closed or the write failed.
        @discardableResult
        func send(_ text: String) -> Bool {
            sendLock.withLock { _ in
                guard !flags.withLock({ $0.closed }) else { return false }
                return (try? peer.sendText(text)) != nil
            }
        }

        /// Sends a close frame.
        func sendClose(_ code: UInt16, reason: String) {
            sendLock.withLock { _ in
                guard !flags.withLock({ $0.closed }) else { return }
                try? peer.sendClose(code, reason: reason)
            }
        }

        /// Drops the TCP connection without a close frame (RST). The reader, if still reading, then sees the end
        /// and closes the descriptor; otherwise it is closed here.
        func cut() {
            let closeNow = flags.withLock { flags -> Bool in
                guard !flags.closed else { return false }
                peer.dropConnection()
                return !flags.reading
            }
            if closeNow { close() }
        }

        /// The reader thread has stopped reading; `close` closes the descriptor too (the client left).
        func readerStopped(close closing: Bool) {
            flags.withLock { $0.reading = false }
            if closing { close() }
        }

        /// Whether the descriptor is still open.
        var isOpen: Bool { flags.withLock { !$0.closed } }

        private func close() {
            sendLock.withLock { _ in
                let first = flags.withLock { flags -> Bool in
                    defer { flags.closed = true }
                    return !flags.closed
                }
                if first { Glibc.close(fd) }
            }
        }
    }
}
