/// Strict checks of the lines whose grammar the model relies on (RFC 8866 §5, §9).
///
/// Lines whose content is free text (`s=`, `i=`, `u=`, `e=`, `p=`, `k=`) and attributes the module does not
/// interpret are not checked: RFC 8866 §5 says unknown attributes "MUST be ignored".
enum LineValidator {
    /// Why the line is malformed, or `nil` when it is acceptable.
    static func reason(type: UInt8, value: Substring, mode: ParseMode) -> String? {
        switch type {
        case UInt8(ascii: "v"):
            return value == "0" ? nil : "unsupported version 'v=\(value)', expected 'v=0'"
        case UInt8(ascii: "o"):
            guard let origin = Origin(lineValue: value) else {
                return "malformed o= line, expected '<username> <sess-id> <sess-version> <nettype> <addrtype> <address>'"
            }
            return addressTypeReason(netType: origin.netType, addrType: origin.addrType)
        case UInt8(ascii: "c"):
            guard let connection = Connection(lineValue: value) else {
                return "malformed c= line, expected '<nettype> <addrtype> <address>'"
            }
            return addressTypeReason(netType: connection.netType, addrType: connection.addrType)
        case UInt8(ascii: "b"):
            return Bandwidth(lineValue: value) == nil ? "malformed b= line, expected '<bwtype>:<digits>'" : nil
        case UInt8(ascii: "t"):
            let fields = SDPGrammar.fields(value)
            guard fields.count == 2, fields.allSatisfy({ SDPGrammar.decimal($0, as: UInt64.self) != nil }) else {
                return "malformed t= line, expected '<start-time> <stop-time>'"
            }
            return nil
        case UInt8(ascii: "a"):
            return attributeReason(value, mode: mode)
        default:
            return nil
        }
    }

    /// RFC 8866 §5.7: with nettype `IN`, the address type is `IP4` or `IP6`.
    static func addressTypeReason(netType: String, addrType: String) -> String? {
        guard netType == "IN", addrType != "IP4", addrType != "IP6" else { return nil }
        return "unknown address type '\(addrType)', expected IP4 or IP6"
    }

    static func attributeReason(_ value: Substring, mode: ParseMode) -> String? {
        // Split on bytes, as SDPLine.attribute does (RFC 8866 §5.13: at the first colon).
        let utf8 = value.utf8
        let colon = utf8.firstIndex(of: UInt8(ascii: ":"))
        let name = Substring(utf8[..<(colon ?? utf8.endIndex)])
        guard SDPGrammar.isToken(name) else { return "attribute name '\(name)' is not a token" }
        guard let colon else { return nil }
        let attributeValue = Substring(utf8[utf8.index(after: colon)...])
        switch name {
        case "candidate":
            do {
                _ = try CandidateAttribute(attributeValue: attributeValue, mode: mode)
                return nil
            } catch {
                return "invalid candidate: \(error.reason)"
            }
        case "rtcp":
            // RFC 3605 §2.1: a=rtcp:<port> [<nettype> <addrtype> <address>]
            let fields = SDPGrammar.fields(attributeValue)
            guard SDPGrammar.decimal(fields[0], as: UInt16.self) != nil, fields.count == 1 || fields.count == 4 else {
                return "malformed a=rtcp, expected '<port> [<nettype> <addrtype> <address>]'"
            }
            return fields.count == 4 ? addressTypeReason(netType: String(fields[1]), addrType: String(fields[2])) : nil
        default:
            return nil
        }
    }
}
