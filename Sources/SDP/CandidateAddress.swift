/// Classification of a candidate's connection-address (RFC 8839 §5.1, JSEP-SDP §3.2).
public enum CandidateAddressKind: String, Hashable, Sendable, Codable {
    /// A dotted-quad IPv4 address.
    case ipv4
    /// An IPv6 address (recognised by a colon), optionally with a `%zone`.
    case ipv6
    /// A host name other than mDNS (RFC 8839 says agents MUST NOT send these, receivers ignore them).
    case fqdn
    /// An mDNS name ending in `.local` (RFC 8828, draft-ietf-mmusic-mdns-ice-candidates).
    case mdns

    /// The kind of `address`, or `nil` when it is no valid IPv4, IPv6 or host name.
    public init?(address: some StringProtocol) {
        let bytes = Array(address.utf8)
        guard !bytes.isEmpty else { return nil }
        if bytes.contains(UInt8(ascii: ":")) {
            guard Self.isIPv6(bytes[...]) else { return nil }
            self = .ipv6
        } else if bytes.allSatisfy({ SDPGrammar.isDigit($0) || $0 == UInt8(ascii: ".") }) {
            guard Self.isIPv4(bytes[...]) else { return nil }
            self = .ipv4
        } else {
            guard Self.isHostName(bytes) else { return nil }
            let lower = String(decoding: bytes, as: UTF8.self).lowercased()
            self = lower.hasSuffix(".local") || lower.hasSuffix(".local.") ? .mdns : .fqdn
        }
    }

    /// Four decimal octets 0–255 of at most three digits.
    static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            part.count <= 3 && SDPGrammar.decimal(String(decoding: part, as: UTF8.self), as: UInt8.self) != nil
        }
    }

    /// RFC 4291 §2.2 text form: up to eight 1–4 digit hex groups, at most one `::`, an optional trailing
    /// dotted quad, and an optional RFC 6874 `%zone` (seen as `fe80::1%eth0`, JSEP-SDP §5.9).
    static func isIPv6(_ input: ArraySlice<UInt8>) -> Bool {
        var bytes = input
        if let percent = bytes.firstIndex(of: UInt8(ascii: "%")) {
            let zone = bytes[(percent + 1)...]
            guard !zone.isEmpty, zone.allSatisfy(SDPGrammar.isVisibleChar) else { return false }
            bytes = bytes[..<percent]
        }
        let text = Array(bytes)
        let colon = UInt8(ascii: ":")
        guard let gap = text.indices.dropLast().first(where: { text[$0] == colon && text[$0 + 1] == colon }) else {
            guard let units = hexUnits(text[...], isLast: true) else { return false }
            return units == 8
        }
        let head = text[..<gap], tail = text[(gap + 2)...]
        guard let headUnits = hexUnits(head, isLast: false), let tailUnits = hexUnits(tail, isLast: true) else {
            return false
        }
        return headUnits + tailUnits <= 7
    }

    /// The number of 16-bit units in `:`-separated hex groups (an empty slice has 0), or `nil` when a group
    /// is empty or not 1–4 hex digits. A trailing dotted quad counts as two units.
    static func hexUnits(_ text: ArraySlice<UInt8>, isLast: Bool) -> Int? {
        guard !text.isEmpty else { return 0 }
        let groups = text.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        var units = 0
        for (index, group) in groups.enumerated() {
            if isLast, index == groups.count - 1, group.contains(UInt8(ascii: ".")) {
                guard isIPv4(group) else { return nil }
                units += 2
            } else {
                guard (1...4).contains(group.count), group.allSatisfy(\.isHexDigitByte) else { return nil }
                units += 1
            }
        }
        return units
    }

    /// RFC 1123 host name: labels of letters, digits and `-`, separated by dots, at most 253 characters.
    static func isHostName(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= 254 else { return false }
        var name = bytes[...]
        if name.last == UInt8(ascii: ".") { name = name.dropLast() }
        let labels = name.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { $0 == UInt8(ascii: "-") || SDPGrammar.isDigit($0) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) }
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigitByte: Bool {
        SDPGrammar.isDigit(self) || ((self | 0x20) >= UInt8(ascii: "a") && (self | 0x20) <= UInt8(ascii: "f"))
    }
}
