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
    /// Most bytes one batch carries.
    static let batchLimit = 64 << 10

    /// What ``writeable(_:)`` writes next.
    enum Next {
        /// Several small messages of a server, in one write.
        case batch([Outbound])
        /// One message, through lws's framing.
        case single(Outbound)
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
                    let size = next.buffer.count - CLWS_PRE
                    guard size <= frameLimit, bytes + size <= Self.batchLimit else { break }
                    batch.append(next)
                    bytes += size
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

    /// Writes `batch` as consecutive unmasked frames in one lws write; false when lws refused it (close).
    func write(batch: [Outbound], on wsi: OpaquePointer) -> Bool {
        var bytes = [UInt8](repeating: 0, count: CLWS_PRE)
        bytes.reserveCapacity(CLWS_PRE + batch.reduce(0) { $0 + $1.buffer.count - CLWS_PRE + 10 })
        for frame in batch {
            Self.appendHeader(to: &bytes, binary: frame.binary, length: frame.buffer.count - CLWS_PRE)
            bytes.append(contentsOf: frame.buffer[CLWS_PRE...])
        }
        let total = bytes.count - CLWS_PRE
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            lws_write(wsi, buffer.baseAddress! + CLWS_PRE, total, LWS_WRITE_HTTP)
        }
        guard written >= total else { return false }
        let payload = batch.reduce(0) { $0 + $1.buffer.count - CLWS_PRE }
        shared.withLock { s in
            s.outboundBytes -= payload
            s.batchedMessages += batch.count
        }
        for frame in batch { frame.written?(nil) }
        return true
    }

    /// An unmasked, final frame header (RFC 6455 §5.2): FIN and the opcode, then the payload length in 7, 7+16 or
    /// 7+64 bits.
    static func appendHeader(to bytes: inout [UInt8], binary: Bool, length: Int) {
        bytes.append(0x80 | (binary ? 0x2 : 0x1))
        switch length {
        case ..<126:
            bytes.append(UInt8(length))
        case ..<65536:
            bytes.append(126)
            bytes.append(UInt8(length >> 8))
            bytes.append(UInt8(length & 0xFF))
        default:
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((length >> shift) & 0xFF)) }
        }
    }
}
