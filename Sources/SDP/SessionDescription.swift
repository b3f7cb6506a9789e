/// A parsed SDP session description (RFC 8866): session-level lines, then media sections.
///
/// The model is the only state: serialization rebuilds the text from it and never from a cached copy of the
/// input, so that an edited or hand-built description serializes correctly. For well-formed input,
/// `try SessionDescription(parsing: text).serialized() == text` byte for byte.
public struct SessionDescription: SDPLineContainer, Hashable, Sendable, CustomStringConvertible {
    /// The session-level lines (`v=` up to the first `m=`), in their original order.
    public var lines: [SDPLine]
    /// The media sections in order; `sdpMLineIndex` indexes this array.
    public var media: [MediaDescription]
    /// The line ending that serialization writes (the one the first input line used).
    public var lineEnding: LineEnding
    /// Whether the last line is terminated (seven corpus files end without a final newline).
    public var hasFinalLineEnding: Bool

    /// A description from its parts. The default is the RFC form: CRLF after every line.
    public init(
        lines: [SDPLine], media: [MediaDescription] = [], lineEnding: LineEnding = .crlf,
        hasFinalLineEnding: Bool = true
    ) {
        self.lines = lines
        self.media = media
        self.lineEnding = lineEnding
        self.hasFinalLineEnding = hasFinalLineEnding
    }

    /// A minimal JSEP-shaped session (JSEP §5.2.1): `v=0`, `o=`, `s=-`, `t=0 0`.
    public init(origin: Origin, sessionName: String = "-") {
        self.init(lines: [
            SDPLine(type: "v", value: "0"), SDPLine(type: "o", value: origin.lineValue),
            SDPLine(type: "s", value: sessionName), SDPLine(type: "t", value: "0 0"),
        ])
    }

    /// Parses `text` strictly (see ``ParseMode``).
    /// - Throws: ``SDPParseError`` with the line number and the reason.
    public init(parsing text: String) throws(SDPParseError) {
        self = try SDPParser.parse(text, mode: .strict).description
    }

    /// The text of the description.
    /// - Parameter normalizingToCRLF: write CRLF after every line, including the last, whatever the input
    ///   used (RFC 8866 §5 form); otherwise reproduce ``lineEnding`` and ``hasFinalLineEnding``.
    public func serialized(normalizingToCRLF: Bool = false) -> String {
        let ending = normalizingToCRLF ? LineEnding.crlf.text : lineEnding.text
        var out = ""
        out.reserveCapacity(64 * (lines.count + media.reduce(0) { $0 + $1.lines.count + 1 }))
        var first = true
        func emit(_ type: Character, _ value: String) {
            if !first { out += ending }
            first = false
            out.append(type)
            out += "="
            out += value
        }
        for line in lines { emit(line.type, line.value) }
        for section in media {
            emit("m", section.mediaLineValue)
            for line in section.lines { emit(line.type, line.value) }
        }
        if !first && (hasFinalLineEnding || normalizingToCRLF) { out += ending }
        return out
    }

    /// The serialized text.
    public var description: String { serialized() }

    /// The protocol version from `v=` (always 0 in practice).
    public var version: Int? { fieldValues("v").first.flatMap { Int($0) } }

    /// The `o=` line.
    public var origin: Origin? {
        get { fieldValues("o").first.flatMap(Origin.init(lineValue:)) }
        set { replaceLines(where: { $0.type == "o" }, with: newValue.map { [SDPLine(type: "o", value: $0.lineValue)] } ?? []) }
    }

    /// The `s=` text, possibly empty or a single space (RFC 8866 §5.3).
    public var sessionName: String? { fieldValues("s").first }

    /// `a=group` lines, in order (RFC 5888).
    public var groups: [MediaGroup] {
        get { attributeValues(named: "group").compactMap(MediaGroup.init(attributeValue:)) }
        set { replaceAttributes(named: "group", with: newValue.map { .init(name: "group", value: $0.attributeValue) }) }
    }

    /// The BUNDLE groups (RFC 9143); usually zero or one.
    public var bundleGroups: [MediaGroup] { groups.filter { $0.semantics == "BUNDLE" } }

    /// `a=ice-lite` (RFC 8839 §5.3), session level only.
    public var iceLite: Bool {
        get { hasAttribute(named: "ice-lite") }
        set { setAttribute("ice-lite", value: nil, present: newValue) }
    }

    /// The index of the section whose `a=mid` is `mid`.
    public func mediaIndex(forMid mid: String) -> Int? { media.firstIndex { $0.mid == mid } }
}
