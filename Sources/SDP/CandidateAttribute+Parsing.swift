/// The RFC 8839 §5.1 grammar, field by field.
extension CandidateAttribute {
    /// Parses the text after `candidate:`.
    /// - Throws: ``CandidateParseError`` naming the first field that breaks the grammar.
    public init(attributeValue: some StringProtocol, mode: ParseMode = .strict) throws(CandidateParseError) {
        var text = String(attributeValue)
        self = try text.withUTF8 { Self.parse($0[...], mode: mode) }.get()
    }

    /// Parses the bytes after `candidate:` (the SDP parser calls this on its byte ranges).
    static func parse(_ bytes: SDPBytes, mode: ParseMode) -> Result<CandidateAttribute, CandidateParseError> {
        do {
            return .success(try CandidateAttribute(bytes: bytes, mode: mode))
        } catch {
            return .failure(error)
        }
    }

    private init(bytes: SDPBytes, mode: ParseMode) throws(CandidateParseError) {
        let strict = mode == .strict
        var fields: [SDPBytes] = []
        fields.reserveCapacity(18)
        SDPGrammar.split(bytes, into: &fields)
        if !strict {
            // Lenient: tolerate repeated and trailing spaces, and an empty foundation (`candidate: 1 udp …`,
            // accepted by pion/ice) by keeping the first empty field as the foundation.
            let leadingEmpty = fields.first?.isEmpty == true
            fields.removeAll { $0.isEmpty }
            if leadingEmpty { fields.insert(bytes[bytes.startIndex..<bytes.startIndex], at: 0) }
        } else if fields.contains(where: { $0.isEmpty }) {
            throw CandidateParseError(reason: "empty field (doubled, leading or trailing space)")
        }
        guard fields.count >= 8 else {
            throw CandidateParseError(reason: "expected at least 8 fields '<foundation> <component> <transport> <priority> <address> <port> typ <type>', got \(fields.count)")
        }

        let foundation = fields[0]
        guard foundation.count <= 32, foundation.allSatisfy(SDPGrammar.isIceChar) else {
            throw CandidateParseError(reason: "foundation '\(foundation.string)' is not 1–32 ice-chars (ALPHA / DIGIT / + /)")
        }
        if strict, foundation.isEmpty { throw CandidateParseError(reason: "empty foundation") }

        guard fields[1].count <= 3, let component = SDPGrammar.decimal(fields[1], as: Int.self), (1...256).contains(component) else {
            throw CandidateParseError(reason: "component-id '\(fields[1].string)' is not 1–256")
        }
        guard SDPGrammar.isToken(fields[2]) else {
            throw CandidateParseError(reason: "transport '\(fields[2].string)' is not a token")
        }
        guard fields[3].count <= 10, let priority = SDPGrammar.decimal(fields[3], as: UInt32.self),
            priority <= Int32.max, priority >= (strict ? 1 : 0)
        else {
            throw CandidateParseError(reason: "priority '\(fields[3].string)' is not 1…2147483647 (RFC 8445 §5.1.2)")
        }
        let address = fields[4]
        if strict, CandidateAddressKind(utf8: address) == nil {
            throw CandidateParseError(reason: "connection-address '\(address.string)' is not IPv4, IPv6 or a host name")
        }
        let port = try Self.port(fields[5], field: "port")
        guard fields[6].equals("typ") else {
            throw CandidateParseError(reason: "expected 'typ' after the port, found '\(fields[6].string)'")
        }
        guard SDPGrammar.isToken(fields[7]) else {
            throw CandidateParseError(reason: "candidate type '\(fields[7].string)' is not a token")
        }
        let type = CandidateType(rawValue: fields[7].string)

        // RFC 8839: [SP rel-addr] [SP rel-port] come right after the type, before any extension.
        var index = 8
        var relatedAddress: String?
        var relatedPort: Int?
        if index + 1 < fields.count, fields[index].equals("raddr") {
            if strict, CandidateAddressKind(utf8: fields[index + 1]) == nil {
                throw CandidateParseError(reason: "raddr '\(fields[index + 1].string)' is not IPv4, IPv6 or a host name")
            }
            relatedAddress = fields[index + 1].string
            index += 2
        }
        if index + 1 < fields.count, fields[index].equals("rport") {
            relatedPort = try Self.port(fields[index + 1], field: "rport")
            index += 2
        }
        if strict, type.requiresRelatedAddress, relatedAddress == nil || relatedPort == nil {
            throw CandidateParseError(reason: "\(type.rawValue) candidate without raddr and rport (RFC 8839 §5.1)")
        }

        var extensions: [Extension] = []
        while index < fields.count {
            let name = fields[index]
            guard index + 1 < fields.count else {
                throw CandidateParseError(reason: "extension '\(name.string)' has no value")
            }
            let value = fields[index + 1]
            guard SDPGrammar.isToken(name) else {
                throw CandidateParseError(reason: "extension name '\(name.string)' is not a token")
            }
            guard value.allSatisfy(SDPGrammar.isVisibleChar) else {
                throw CandidateParseError(reason: "extension '\(name.string)' value contains a non-visible character")
            }
            if strict, name.equals("raddr") || name.equals("rport") {
                throw CandidateParseError(reason: "'\(name.string)' must directly follow the candidate type")
            }
            if strict, name.equals("tcptype") {
                guard TCPType(rawValue: value.string) != nil else {
                    throw CandidateParseError(reason: "tcptype '\(value.string)' is not active, passive or so (RFC 6544 §4.5)")
                }
                guard fields[2].string.lowercased() == "tcp" else {
                    throw CandidateParseError(reason: "tcptype on a non-TCP candidate (RFC 6544 §4.5)")
                }
            }
            extensions.append(Extension(name: name.string, value: value.string))
            index += 2
        }

        self.init(
            foundation: foundation.string, componentID: component, transport: fields[2].string,
            priority: priority, address: address.string, port: port, type: type,
            relatedAddress: relatedAddress, relatedPort: relatedPort, extensions: extensions)
    }

    /// `1*DIGIT` in 0…65535.
    private static func port(_ text: SDPBytes, field: String) throws(CandidateParseError) -> Int {
        guard text.count <= 5, let value = SDPGrammar.decimal(text, as: UInt16.self) else {
            throw CandidateParseError(reason: "\(field) '\(text.string)' is not 0…65535")
        }
        return Int(value)
    }
}
