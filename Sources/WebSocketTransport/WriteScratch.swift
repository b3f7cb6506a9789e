import CLibWebSockets
import Foundation

/// The one buffer an event loop's service thread writes WebSocket frames from (docs/libwebsockets.md#writes).
///
/// Queued messages keep their own `String` or `Data`, shared by every connection they were sent to; only at write
/// time are a frame's bytes copied here, behind `CLWS_PRE` bytes of headroom (lws writes the frame header there and
/// masks a client's payload in place). lws has taken or copied every byte when `lws_write` returns, so the buffer is
/// free again for the next write of any connection of the loop. Service thread only.
final class WriteScratch {
    /// Payload bytes the buffer holds after its headroom: one full frame of the default `maxFrameSize`, or one
    /// server batch (``ConnectionCore/batchLimit``).
    static let capacity = 64 << 10

    private let storage: UnsafeMutablePointer<UInt8>

    init() {
        storage = .allocate(capacity: CLWS_PRE + Self.capacity)
        storage.initialize(repeating: 0, count: CLWS_PRE + Self.capacity)
    }

    deinit { storage.deallocate() }

    /// Calls `body` with room for `count` payload bytes behind `CLWS_PRE` bytes of headroom; the pointer is the
    /// payload's start. More than ``capacity`` bytes get a temporary buffer, freed when `body` returns. The
    /// memory is valid only during `body`.
    func withPayload<R>(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
        if count <= Self.capacity { return body(storage + CLWS_PRE) }
        let temporary = UnsafeMutablePointer<UInt8>.allocate(capacity: CLWS_PRE + count)
        defer { temporary.deallocate() }
        temporary.initialize(repeating: 0, count: CLWS_PRE)
        return body(temporary + CLWS_PRE)
    }
}

extension WebSocketMessage {
    /// Copies `count` payload bytes starting at byte `offset` to `destination`: straight from the string's
    /// contiguous UTF-8 storage or the data's bytes, with an element-wise copy for a string that has no contiguous
    /// storage.
    func copyPayload(from offset: Int, count: Int, to destination: UnsafeMutablePointer<UInt8>) {
        guard count > 0 else { return }
        switch self {
        case .text(let s):
            let copied: Void? = s.utf8.withContiguousStorageIfAvailable { bytes in
                destination.update(from: bytes.baseAddress! + offset, count: count)
            }
            if copied == nil { Self.copyBytes(of: s.utf8, from: offset, count: count, to: destination) }
        case .binary(let d):
            d.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(destination).copyMemory(from: raw.baseAddress! + offset, byteCount: count)
            }
        }
    }

    /// The element-wise copy for a string without contiguous UTF-8 storage (a foreign string; native strings
    /// always have it).
    static func copyBytes(of bytes: some Collection<UInt8>, from offset: Int, count: Int,
                          to destination: UnsafeMutablePointer<UInt8>) {
        _ = UnsafeMutableBufferPointer(start: destination, count: count)
            .update(fromContentsOf: bytes.dropFirst(offset).prefix(count))
    }
}
