import SDP

/// libFuzzer entry point: any bytes through the strict and the lenient SDP parser.
///
/// Invariant checked: a description that parses strictly serializes to text that parses strictly again into
/// an equal model (serialization works from the model alone), with and without CRLF normalization.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSDP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let result = try? SDPParser.parse(text, mode: .lenient) {
        _ = SDPSummary(result.description)
    }
    guard let description = try? SessionDescription(parsing: text) else { return 0 }
    _ = SDPSummary(description)
    for normalize in [false, true] {
        let serialized = description.serialized(normalizingToCRLF: normalize)
        guard let again = try? SessionDescription(parsing: serialized) else {
            fatalError("serialized description does not parse:\n\(serialized)")
        }
        guard again.lines == description.lines, again.media == description.media else {
            fatalError("round trip changed the model:\n\(text)")
        }
    }
    return 0
}
