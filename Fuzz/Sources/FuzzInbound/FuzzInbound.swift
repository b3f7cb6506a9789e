@_spi(Fuzzing) import WebSocketTransport

/// libFuzzer entry point: the bytes are a script of chunks fed to ``InboundAssembler``, the reassembly that our
/// `RECEIVE` callback runs (lws does the framing itself, so this is our code that raw network bytes reach).
/// Each chunk is `[flags][length][length bytes]`: flags bit 0 = final fragment, bit 1 = binary message.
///
/// Invariants checked against a shadow model: a delivered message is exactly the concatenation of its chunks,
/// never over the limit; text is delivered only when it is valid UTF-8; after `tooBig` nothing more is delivered.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInbound(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let limit = 300
    var assembler = InboundAssembler(maxMessageSize: limit, keepCapacity: 64)
    var shadow: [UInt8] = [], shadowBinary = false, inMessage = false, closed = false
    var i = 0
    while i + 2 <= input.count {
        let flags = input[i], length = Int(input[i + 1])
        let chunk = Array(input[(i + 2)..<min(input.count, i + 2 + length)])
        i += 2 + length
        let final = flags & 1 != 0, binary = flags & 2 != 0
        if !inMessage {
            inMessage = true
            shadowBinary = binary
            shadow = []
        }
        shadow += chunk
        let outcome = chunk.withUnsafeBytes { assembler.receive($0, binary: binary, final: final) }
        if closed {
            precondition(outcome == .partial, "delivered after tooBig: \(outcome)")
            continue
        }
        switch outcome {
        case .partial:
            precondition(!final || shadow.count > limit, "a final chunk gave no message")
        case .tooBig:
            precondition(shadow.count > limit, "tooBig at \(shadow.count) bytes, limit \(limit)")
            closed = true
        case .invalidUTF8:
            precondition(final && !shadowBinary && String(validating: shadow, as: UTF8.self) == nil)
            inMessage = false
        case .message(.text(let text)):
            precondition(final && !shadowBinary && Array(text.utf8) == shadow && shadow.count <= limit)
            inMessage = false
        case .message(.binary(let bytes)):
            precondition(final && shadowBinary && Array(bytes) == shadow && shadow.count <= limit)
            inMessage = false
        }
    }
    return 0
}
