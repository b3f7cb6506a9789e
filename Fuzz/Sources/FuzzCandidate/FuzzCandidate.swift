import SDP

/// libFuzzer entry point: any bytes through the candidate parser, strict and lenient.
///
/// Invariant checked: a strictly parsed candidate serializes to a line that parses back to an equal value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCandidate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let lenient = try? CandidateAttribute(parsing: text, mode: .lenient) {
        _ = lenient.addressKind
        _ = lenient.description
    }
    guard let candidate = try? CandidateAttribute(parsing: text) else { return 0 }
    guard let again = try? CandidateAttribute(parsing: candidate.description), again == candidate else {
        fatalError("candidate round trip failed: \(text)")
    }
    _ = IceCandidate(candidate, sdpMid: "0", sdpMLineIndex: 0)
    return 0
}
