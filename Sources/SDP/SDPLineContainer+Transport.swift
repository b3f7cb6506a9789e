/// Accessors that apply at both the session and the media level (RFC 8866 §5: a media-level value
/// overrides the session-level one; ``SessionDescription`` offers the resolved "effective" values).
extension SDPLineContainer {
    /// The direction attribute of this level, or `nil` when none is written. Setting replaces any direction
    /// attribute in place; `nil` removes it.
    public var direction: MediaDirection? {
        get {
            for line in lines where line.type == "a" {
                if let direction = MediaDirection(rawValue: line.value) { return direction }
            }
            return nil
        }
        set {
            replaceLines(
                where: { $0.type == "a" && MediaDirection(rawValue: $0.value) != nil },
                with: newValue.map { [SDPLine(SDPAttribute(name: $0.rawValue))] } ?? [])
        }
    }

    /// `a=ice-ufrag` (RFC 8839 §5.4).
    public var iceUfrag: String? {
        get { attributeValue(named: "ice-ufrag").map(String.init) }
        set { setAttribute("ice-ufrag", value: newValue, present: newValue != nil) }
    }

    /// `a=ice-pwd` (RFC 8839 §5.4).
    public var icePwd: String? {
        get { attributeValue(named: "ice-pwd").map(String.init) }
        set { setAttribute("ice-pwd", value: newValue, present: newValue != nil) }
    }

    /// `a=ice-options` tags, such as `trickle` (RFC 8839 §5.6). Setting `[]` removes the line.
    public var iceOptions: [String] {
        get { attributeValues(named: "ice-options").flatMap { $0.split(separator: " ").map(String.init) } }
        set {
            setAttribute("ice-options", value: newValue.joined(separator: " "), present: !newValue.isEmpty)
        }
    }

    /// `a=fingerprint` lines, in order (RFC 8122 §5); several hash functions may be offered.
    public var fingerprints: [Fingerprint] {
        get { attributeValues(named: "fingerprint").compactMap(Fingerprint.init(attributeValue:)) }
        set {
            replaceAttributes(named: "fingerprint", with: newValue.map { .init(name: "fingerprint", value: $0.attributeValue) })
        }
    }

    /// `a=setup` (RFC 4145 §4); `nil` when absent or unknown.
    public var setup: SetupRole? {
        get { attributeValue(named: "setup").flatMap { SetupRole(rawValue: String($0)) } }
        set { setAttribute("setup", value: newValue?.rawValue, present: newValue != nil) }
    }

    /// The `b=` lines of this level that parse (unknown bwtypes are kept, RFC 8866 §5.8).
    public var bandwidths: [Bandwidth] {
        get { fieldValues("b").compactMap(Bandwidth.init(lineValue:)) }
        set {
            replaceLines(where: { $0.type == "b" }, with: newValue.map { SDPLine(type: "b", value: $0.lineValue) })
        }
    }

    /// The first `c=` line of this level.
    public var connection: Connection? {
        get { fieldValues("c").first.flatMap(Connection.init(lineValue:)) }
        set {
            replaceLines(where: { $0.type == "c" }, with: newValue.map { [SDPLine(type: "c", value: $0.lineValue)] } ?? [])
        }
    }

    /// The `a=candidate` lines that parse (leniently), in order (RFC 8839 §5.1).
    public var candidates: [CandidateAttribute] {
        attributeValues(named: "candidate").compactMap {
            try? CandidateAttribute(attributeValue: $0, mode: .lenient)
        }
    }

    /// `a=end-of-candidates` (RFC 8840 §8.2): no more candidates will be trickled for this level.
    public var endOfCandidates: Bool {
        get { hasAttribute(named: "end-of-candidates") }
        set { setAttribute("end-of-candidates", value: nil, present: newValue) }
    }

    /// Adds `candidate` after the last `a=candidate` line, or before `a=end-of-candidates`, or at the end.
    public mutating func addCandidate(_ candidate: CandidateAttribute) {
        let line = SDPLine(SDPAttribute(name: "candidate", value: candidate.attributeValue))
        if let last = lines.lastIndex(where: { $0.isAttribute(named: "candidate") }) {
            lines.insert(line, at: last + 1)
        } else if let end = lines.firstIndex(where: { $0.isAttribute(named: "end-of-candidates") }) {
            lines.insert(line, at: end)
        } else {
            lines.append(line)
        }
    }

    /// Removes every `a=candidate` line (for example before an ICE restart).
    public mutating func removeCandidates() {
        removeAttributes(named: "candidate")
    }
}
