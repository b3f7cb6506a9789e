import Foundation

/// Reassembles the fragments lws hands to `RECEIVE` into whole messages, enforcing the size limit and UTF-8 of
/// text (RFC 6455 §5.4, §8.1). Pure: the service thread feeds it, and the `FuzzInbound` target fuzzes it
/// (framing itself happens inside lws, so this is the inbound code of ours that raw bytes reach).
@_spi(Fuzzing)
public struct InboundAssembler: Sendable {
    /// What one chunk led to.
    public enum Outcome: Sendable, Hashable {
        /// More fragments are needed.
        case partial
        /// A whole message.
        case message(WebSocketMessage)
        /// The message went over the limit: close with 1009. Later chunks are ignored (`partial`).
        case tooBig
        /// A text message was not valid UTF-8: close with 1007.
        case invalidUTF8
    }

    /// The largest message accepted.
    public let maxMessageSize: Int
    private let keepCapacity: Int
    private var buffer: [UInt8] = []
    private var binary = false
    private var inMessage = false
    private(set) var discarding = false

    /// Creates an assembler; buffers up to `keepCapacity` bytes are reused between messages.
    public init(maxMessageSize: Int, keepCapacity: Int = 128 << 10) {
        self.maxMessageSize = maxMessageSize
        self.keepCapacity = keepCapacity
    }

    /// Takes one chunk. `binary` is read only on the first chunk of a message; `final` marks its last chunk.
    public mutating func receive(_ chunk: UnsafeRawBufferPointer, binary isBinary: Bool, final: Bool) -> Outcome {
        if discarding { return .partial }
        // A message in one chunk (the usual case) is made straight from lws's buffer: one copy, not two.
        if !inMessage, final, chunk.count <= maxMessageSize {
            if isBinary { return .message(.binary(Data(chunk))) }
            guard let text = String(validating: chunk, as: UTF8.self) else { return .invalidUTF8 }
            return .message(.text(text))
        }
        if !inMessage {
            inMessage = true
            binary = isBinary
            buffer.removeAll(keepingCapacity: buffer.capacity <= keepCapacity)
        }
        guard buffer.count + chunk.count <= maxMessageSize else {
            discarding = true
            buffer = []
            return .tooBig
        }
        buffer.append(contentsOf: chunk)
        guard final else { return .partial }
        inMessage = false
        if binary { return .message(.binary(Data(buffer))) }
        guard let text = String(validating: buffer, as: UTF8.self) else { return .invalidUTF8 }
        return .message(.text(text))
    }
}
