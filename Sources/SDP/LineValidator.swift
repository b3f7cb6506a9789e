/// Strict checks of the lines whose grammar the model relies on (RFC 8866 §5, §9).
///
/// Lines whose content is free text (`s=`, `i=`, `u=`, `e=`, `p=`, `k=`) and attributes the module does not
/// interpret are not checked: RFC 8866 §5 says unknown attributes "MUST be ignored".
///
/// The checks run on the line's bytes and accept exactly what ``Origin/init(lineValue:)``,
/// ``Connection/init(lineValue:)`` and ``Bandwidth/init(lineValue:)`` accept, without building them.
enum LineValidator {
    /// Why the line is malformed, or `nil` when it is acceptable. `fields` is scratch space.
    static func reason(type: UInt8, value: SDPBytes, mode: ParseMode, fields: inout [SDPBytes]) -> String? {
        switch type {
        case UInt8(ascii: "v"):
            return value.equals("0") ? nil : "unsupported version 'v=\(value.string)', expected 'v=0'"
        case UInt8(ascii: "o"):
            SDPGrammar.split(value, into: &fields)
            guard fields.count == 6, !fields.contains(where: { $0.isEmpty }),
                SDPGrammar.decimal(fields[1], as: UInt64.self) != nil,
                SDPGrammar.decimal(fields[2], as: UInt64.self) != nil
            else {
                return "malformed o= line, expected '<username> <sess-id> <sess-version> <nettype> <addrtype> <address>'"
            }
            return addressTypeReason(netType: fields[3], addrType: fields[4])
        case UInt8(ascii: "c"):
            SDPGrammar.split(value, into: &fields)
            guard fields.count == 3, !fields.contains(where: { $0.isEmpty }) else {
                return "malformed c= line, expected '<nettype> <addrtype> <address>'"
            }
            return addressTypeReason(netType: fields[0], addrType: fields[1])
        case UInt8(ascii: "b"):
            // As Bandwidth(lineValue:): a token, a colon, digits. Its Character-wise colon search finds a
            // different colon only next to a non-ASCII scalar, which fails the token or digit check either way.
            guard let colon = value.firstIndex(of: UInt8(ascii: ":")), SDPGrammar.isToken(value[..<colon]),
                SDPGrammar.decimal(value[(colon + 1)...], as: UInt64.self) != nil
            else { return "malformed b= line, expected '<bwtype>:<digits>'" }
            return nil
        case UInt8(ascii: "t"):
            SDPGrammar.split(value, into: &fields)
            guard fields.count == 2, fields.allSatisfy({ SDPGrammar.decimal($0, as: UInt64.self) != nil }) else {
                return "malformed t= line, expected '<start-time> <stop-time>'"
            }
            return nil
        case UInt8(ascii: "a"):
            return attributeReason(value, mode: mode, fields: &fields)
        default:
            return nil
        }
    }

    /// RFC 8866 §5.7: with nettype `IN`, the address type is `IP4` or `IP6`. Bytes are compared: no non-ASCII
    /// text is canonically equivalent to `IN`, `IP4` or `IP6`, so this answers as a `String` comparison would.
    static func addressTypeReason(netType: SDPBytes, addrType: SDPBytes) -> String? {
        guard netType.equals("IN"), !addrType.equals("IP4"), !addrType.equals("IP6") else { return nil }
        return "unknown address type '\(addrType.string)', expected IP4 or IP6"
    }

    static func attributeReason(_ value: SDPBytes, mode: ParseMode, fields: inout [SDPBytes]) -> String? {
        // RFC 8866 §5.13: the name ends at the first colon.
        // One pass: token characters up to the colon.
        var index = value.startIndex
        while index < value.endIndex, SDPGrammar.isTokenChar(value[index]) { index += 1 }
        if index < value.endIndex, value[index] != UInt8(ascii: ":") {  // a non-token byte in the name
            let nameEnd = value[index...].firstIndex(of: UInt8(ascii: ":")) ?? value.endIndex
            return "attribute name '\(value[..<nameEnd].string)' is not a token"
        }
        let name = value[..<index]
        guard !name.isEmpty else { return "attribute name '' is not a token" }
        guard index < value.endIndex else { return nil }
        let colon = index
        let attributeValue = value[(colon + 1)...]
        if name.equals("candidate") {
            switch CandidateAttribute.parse(attributeValue, mode: mode) {
            case .success: return nil
            case .failure(let error): return "invalid candidate: \(error.reason)"
            }
        }
        if name.equals("rtcp") {
            // RFC 3605 §2.1: a=rtcp:<port> [<nettype> <addrtype> <address>]
            SDPGrammar.split(attributeValue, into: &fields)
            guard SDPGrammar.decimal(fields[0], as: UInt16.self) != nil, fields.count == 1 || fields.count == 4 else {
                return "malformed a=rtcp, expected '<port> [<nettype> <addrtype> <address>]'"
            }
            return fields.count == 4 ? addressTypeReason(netType: fields[1], addrType: fields[2]) : nil
        }
        return nil
    }
}
