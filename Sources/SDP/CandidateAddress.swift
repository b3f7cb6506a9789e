/// Classification of a candidate's connection-address (RFC 8839 §5.1, docs/sdp-jsep.md#candidate-grammar).
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
        var text = String(address)
        guard let kind = text.withUTF8({ Self(utf8: $0[...]) }) else { return nil }
        self = kind
    }

    /// The kind of the address whose UTF-8 bytes are `bytes` (the candidate parser's byte ranges).
    init?(utf8 bytes: SDPBytes) {
        guard !bytes.isEmpty else { return nil }
        if bytes.contains(UInt8(ascii: ":")) {
            guard Self.isIPv6(bytes) else { return nil }
            self = .ipv6
        } else if bytes.allSatisfy({ SDPGrammar.isDigit($0) || $0 == UInt8(ascii: ".") }) {
            guard Self.isIPv4(bytes) else { return nil }
            self = .ipv4
        } else {
            guard Self.isHostName(bytes) else { return nil }
            // A host name is ASCII: compare bytes, ignoring case, with an optional final dot.
            let name = bytes.last == UInt8(ascii: ".") ? bytes.dropLast() : bytes
            let suffix = ".local".utf8
            let isLocal =
                name.count >= suffix.count
                && zip(name.suffix(suffix.count), suffix).allSatisfy { $0 == $1 || $0 | 0x20 == $1 }
            self = isLocal ? .mdns : .fqdn
        }
    }

    /// Calls `body` with each piece of `bytes` between `separator`s (empty pieces included) and whether it is
    /// the last piece; stops and returns `false` as soon as `body` does.
    private static func allPieces(
        of bytes: SDPBytes, separatedBy separator: UInt8, _ body: (SDPBytes, Bool) -> Bool
    ) -> Bool {
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == separator {
                guard body(bytes[start..<index], false) else { return false }
                start = index + 1
            }
            index += 1
        }
        return body(bytes[start..<bytes.endIndex], true)
    }

    /// Four decimal octets 0–255 of at most three digits.
    static func isIPv4(_ bytes: SDPBytes) -> Bool {
        var parts = 0
        let valid = allPieces(of: bytes, separatedBy: UInt8(ascii: ".")) { part, _ in
            parts += 1
            return part.count <= 3 && SDPGrammar.decimal(part, as: UInt8.self) != nil
        }
        return valid && parts == 4
    }

    /// RFC 4291 §2.2 text form: up to eight 1–4 digit hex groups, at most one `::`, an optional trailing
    /// dotted quad, and an optional RFC 6874 `%zone` (seen as `fe80::1%eth0`, docs/sdp-jsep.md#real-world-sdp, item 9).
    static func isIPv6(_ input: SDPBytes) -> Bool {
        var bytes = input
        if let percent = bytes.firstIndex(of: UInt8(ascii: "%")) {
            let zone = bytes[(percent + 1)...]
            guard !zone.isEmpty, zone.allSatisfy(SDPGrammar.isVisibleChar) else { return false }
            bytes = bytes[..<percent]
        }
        let colon = UInt8(ascii: ":")
        var gap: Int?
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == colon && bytes[index + 1] == colon {
                gap = index
                break
            }
            index += 1
        }
        guard let gap else {
            guard let units = hexUnits(bytes, isLast: true) else { return false }
            return units == 8
        }
        let head = bytes[..<gap], tail = bytes[(gap + 2)...]
        guard let headUnits = hexUnits(head, isLast: false), let tailUnits = hexUnits(tail, isLast: true) else {
            return false
        }
        return headUnits + tailUnits <= 7
    }

    /// The number of 16-bit units in `:`-separated hex groups (an empty slice has 0), or `nil` when a group
    /// is empty or not 1–4 hex digits. A trailing dotted quad counts as two units.
    static func hexUnits(_ text: SDPBytes, isLast: Bool) -> Int? {
        guard !text.isEmpty else { return 0 }
        var units = 0
        let valid = allPieces(of: text, separatedBy: UInt8(ascii: ":")) { group, isLastGroup in
            if isLast, isLastGroup, group.contains(UInt8(ascii: ".")) {
                guard isIPv4(group) else { return false }
                units += 2
            } else {
                guard (1...4).contains(group.count), group.allSatisfy({ $0.isHexDigitByte }) else { return false }
                units += 1
            }
            return true
        }
        return valid ? units : nil
    }

    /// RFC 1123 host name: labels of letters, digits and `-`, separated by dots, at most 253 characters.
    static func isHostName(_ bytes: SDPBytes) -> Bool {
        guard bytes.count <= 254 else { return false }
        let name = bytes.last == UInt8(ascii: ".") ? bytes.dropLast() : bytes
        return allPieces(of: name, separatedBy: UInt8(ascii: ".")) { label, _ in
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
