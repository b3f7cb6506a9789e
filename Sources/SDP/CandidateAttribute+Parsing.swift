/// The RFC 8839 §5.1 grammar, field by field.
extension CandidateAttribute {
    /// Parses the text after `candidate:`.
    /// - Throws: ``CandidateParseError`` naming the first field that breaks the grammar.
    public init(attributeValue: some StringProtocol, mode: ParseMode = .strict) throws(CandidateParseError) {
        let strict = mode == .strict
        var fields = SDPGrammar.fields(attributeValue)
        if !strict {
            // Lenient: tolerate repeated and trailing spaces, and an empty foundation (`candidate: 1 udp …`,
            // accepted by pion/ice) by keeping the first empty field as the foundation.
            let leadingEmpty = fields.first?.isEmpty == true
            fields.removeAll(where: \.isEmpty)
            if leadingEmpty { fields.insert("", at: 0) }
        } else if fields.contains(where: \.isEmpty) {
            throw CandidateParseError(reason: "empty field (doubled, leading or trailing space)")
        }
        guard fields.count >= 8 else {
            throw CandidateParseError(reason: "expected at least 8 fields '<foundation> <component> <transport> <priority> <address> <port> typ <type>', got \(fields.count)")
        }

        let foundation = fields[0]
        guard foundation.utf8.count <= 32, foundation.utf8.allSatisfy(SDPGrammar.isIceChar) else {
            throw CandidateParseError(reason: "foundation '\(foundation)' is not 1–32 ice-chars (ALPHA / DIGIT / + /)")
        }
        if strict, foundation.isEmpty { throw CandidateParseError(reason: "empty foundation") }

        guard fields[1].utf8.count <= 3, let component = SDPGrammar.decimal(fields[1], as: Int.self), (1...256).contains(component) else {
            throw CandidateParseError(reason: "component-id '\(fields[1])' is not 1–256")
        }
        guard SDPGrammar.isToken(fields[2]) else {
            throw CandidateParseError(reason: "transport '\(fields[2])' is not a token")
        }
        guard fields[3].utf8.count <= 10, let priority = SDPGrammar.decimal(fields[3], as: UInt32.self),
            priority <= Int32.max, priority >= (strict ? 1 : 0)
        else {
            throw CandidateParseError(reason: "priority '\(fields[3])' is not 1…2147483647 (RFC 8445 §5.1.2)")
        }
        let address = fields[4]
        if strict, CandidateAddressKind(address: address) == nil {
            throw CandidateParseError(reason: "connection-address '\(address)' is not IPv4, IPv6 or a host name")
        }
        let port = try Self.port(fields[5], field: "port")
        guard fields[6] == "typ" else {
            throw CandidateParseError(reason: "expected 'typ' after the port, found '\(fields[6])'")
        }
        guard SDPGrammar.isToken(fields[7]) else {
            throw CandidateParseError(reason: "candidate type '\(fields[7])' is not a token")
        }
        let type = CandidateType(rawValue: String(fields[7]))

        // RFC 8839: [SP rel-addr] [SP rel-port] come right after the type, before any extension.
        var index = 8
        var relatedAddress: String?
        var relatedPort: Int?
        if index + 1 < fields.count, fields[index] == "raddr" {
            if strict, CandidateAddressKind(address: fields[index + 1]) == nil {
                throw CandidateParseError(reason: "raddr '\(fields[index + 1])' is not IPv4, IPv6 or a host name")
            }
            relatedAddress = String(fields[index + 1])
            index += 2
        }
        if index + 1 < fields.count, fields[index] == "rport" {
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
                throw CandidateParseError(reason: "extension '\(name)' has no value")
            }
            let value = fields[index + 1]
            guard SDPGrammar.isToken(name) else {
                throw CandidateParseError(reason: "extension name '\(name)' is not a token")
            }
            guard value.utf8.allSatisfy(SDPGrammar.isVisibleChar) else {
                throw CandidateParseError(reason: "extension '\(name)' value contains a non-visible character")
            }
            if strict, name == "raddr" || name == "rport" {
                throw CandidateParseError(reason: "'\(name)' must directly follow the candidate type")
            }
            if strict, name == "tcptype" {
                guard TCPType(rawValue: String(value)) != nil else {
                    throw CandidateParseError(reason: "tcptype '\(value)' is not active, passive or so (RFC 6544 §4.5)")
                }
                guard fields[2].lowercased() == "tcp" else {
                    throw CandidateParseError(reason: "tcptype on a non-TCP candidate (RFC 6544 §4.5)")
                }
            }
            extensions.append(Extension(name: String(name), value: String(value)))
            index += 2
        }

        self.init(
            foundation: String(foundation), componentID: component, transport: String(fields[2]),
            priority: priority, address: String(address), port: port, type: type,
            relatedAddress: relatedAddress, relatedPort: relatedPort, extensions: extensions)
    }

    /// `1*DIGIT` in 0…65535.
    private static func port(_ text: Substring, field: String) throws(CandidateParseError) -> Int {
        guard text.utf8.count <= 5, let value = SDPGrammar.decimal(text, as: UInt16.self) else {
            throw CandidateParseError(reason: "\(field) '\(text)' is not 0…65535")
        }
        return Int(value)
    }
}
