import CLibWebSockets
import DequeModule
import SignalingSupport

/// Server side: several small queued messages leave in one write, framed here, instead of one `send()` each.
///
/// A server's frames are not masked (RFC 6455 §5.1), so framing is a few header bytes in front of each payload.
/// lws writes its own frames with one system call each; a room broadcast or a join storm queues several messages
/// for one member between two WRITEABLE callbacks, and that call was over a third of the room server's CPU. A batch
/// goes to lws as raw bytes (`LWS_WRITE_RAW`, which lws's WebSocket role passes to the socket unframed, buffering
/// what the socket does not take, as for its own frames), so lws's write path, its partial-write buffering and
/// its TLS stay in charge. Clients (whose frames lws masks) and messages too big for one frame keep lws's framing.
extension ConnectionCore {
    /// Most bytes one batch carries, frame headers included: a batch always fits the loop's ``WriteScratch``.
    static let batchLimit = WriteScratch.capacity

    /// What ``writeable(_:)`` writes next.
    enum Next {
        /// Several small messages of a server, in one write.
        case batch([Outbound])
        /// One message, through lws's framing.
        case single(Outbound)
    }

    /// Whether a message waits to be written; when none does, no write is requested any more, as in ``takeNext()``.
    /// Service thread.
    func hasQueued() -> Bool {
        shared.withLock { s in
            if !s.outbound.isEmpty { return true }
            s.writeRequested = false
            return false
        }
    }

    /// Takes what goes out next, under one lock: a batch when a server has at least two queued messages small
    /// enough to be one frame each, else the first queued message; nil (and no write requested any more) when the
    /// queue is empty. Service thread.
    func takeNext() -> Next? {
        let batches = server != nil
        let frameLimit = min(limits.maxFrameSize, Self.batchLimit)
        return shared.withLock { s -> Next? in
            guard let first = s.outbound.first else {
                s.writeRequested = false
                return nil
            }
            if batches, s.outbound.count >= 2 {
                var batch: [Outbound] = []
                var bytes = 0
                for next in s.outbound {
                    let framed = Self.headerSize(length: next.size) + next.size
                    guard next.size <= frameLimit, bytes + framed <= Self.batchLimit else { break }
                    batch.append(next)
                    bytes += framed
                }
                if batch.count >= 2 {
                    s.outbound.removeFirst(batch.count)
                    return .batch(batch)
                }
            }
            s.outbound.removeFirst()
            return .single(first)
        }
    }

    /// Writes `batch` as consecutive unmasked frames in one lws write, framed in the loop's scratch buffer; false
    /// when lws refused it (close).
    func write(batch: [Outbound], on wsi: OpaquePointer) -> Bool {
        let total = batch.reduce(0) { $0 + Self.headerSize(length: $1.size) + $1.size }
        let written = loop.writeScratch.withPayload(count: total) { start in
            var cursor = start
            for frame in batch {
                cursor += Self.writeHeader(to: cursor, binary: frame.message.isBinary, length: frame.size)
                frame.message.copyPayload(from: 0, count: frame.size, to: cursor)
                cursor += frame.size
            }
            return lws_write(wsi, start, total, LWS_WRITE_HTTP)
        }
        guard written >= total else { return false }
        let payload = batch.reduce(0) { $0 + $1.size }
        shared.withLock { s in
            s.outboundBytes -= payload
            s.batchedMessages += batch.count
        }
        for frame in batch { frame.written?(nil) }
        return true
    }

    /// The size of an unmasked frame header for a payload of `length` bytes (RFC 6455 §5.2).
    static func headerSize(length: Int) -> Int {
        switch length {
        case ..<126: 2
        case ..<65536: 4
        default: 10
        }
    }

    /// Writes an unmasked, final frame header (RFC 6455 §5.2) at `destination`: FIN and the opcode, then the
    /// payload length in 7, 7+16 or 7+64 bits. Returns its size (``headerSize(length:)``).
    static func writeHeader(to destination: UnsafeMutablePointer<UInt8>, binary: Bool, length: Int) -> Int {
        destination[0] = 0x80 | (binary ? 0x2 : 0x1)
        switch length {
        case ..<126:
            destination[1] = UInt8(length)
            return 2
        case ..<65536:
            destination[1] = 126
            destination[2] = UInt8(length >> 8)
            destination[3] = UInt8(length & 0xFF)
            return 4
        default:
            destination[1] = 127
            for (i, shift) in stride(from: 56, through: 0, by: -8).enumerated() {
                destination[2 + i] = UInt8((length >> shift) & 0xFF)
            }
            return 10
        }
    }
}
