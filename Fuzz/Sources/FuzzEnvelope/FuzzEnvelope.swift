import JSONRPC

/// libFuzzer entry point: any bytes, read as text the way our WebSocket adapter reads them (invalid UTF-8 becomes
/// U+FFFD), through `JSONParser` and `RPCCodec` (decode, then classify as request, notification, response, batch
/// or error).
///
/// Invariants checked: a value that parses writes text that parses back to an equal value; a message that
/// classifies writes text that decodes to the same message; decoding never crashes or recurses past the depth
/// limit (100,000 brackets are a seed).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEnvelope(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let value = try? JSONParser.parse(text) {
        guard let again = try? JSONParser.parse(value.jsonText), again == value else {
            fatalError("JSON round trip changed the value: \(text)")
        }
    }
    func roundTrip(_ message: RPCMessage) {
        guard case .single(.success(let again)) = RPCCodec.decode(message.jsonText), again == message else {
            fatalError("message round trip changed it: \(message.jsonText)")
        }
    }
    switch RPCCodec.decode(text) {
    case .single(.success(let message)):
        roundTrip(message)
    case .batch(let elements):
        for case .success(let message) in elements { roundTrip(message) }
    case .single(.failure), .unparsable:
        break
    }
    return 0
}
