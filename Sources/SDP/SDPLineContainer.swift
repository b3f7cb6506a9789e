/// A level of a session description that holds lines: the session level or one media section.
///
/// Both levels share the same attribute machinery (RFC 8866 §5: session-level attributes are defaults that
/// media-level ones override), so the typed accessors that apply at both levels are written once, as
/// extensions of this protocol.
public protocol SDPLineContainer {
    /// The lines of this level in their original order (for a media section: the lines after `m=`).
    var lines: [SDPLine] { get set }
}

/// RFC 8866 §5 line order. A line inserted by an edit goes before the first line that must follow it.
private let lineRank: [Character: Int] = [
    "v": 0, "o": 1, "s": 2, "i": 3, "u": 4, "e": 5, "p": 6, "c": 7, "b": 8,
    "t": 9, "r": 10, "z": 11, "k": 12, "a": 13,
]

extension SDPLineContainer {
    /// All attributes of this level, in order.
    public var attributes: [SDPAttribute] { lines.compactMap(\.attribute) }

    /// The values of every `a=name:value` line named `name`, in order.
    public func attributeValues(named name: String) -> [Substring] {
        lines.compactMap { $0.attributeValue(ifNamed: name) }
    }

    /// The value of the first `a=name:value` line named `name`.
    public func attributeValue(named name: String) -> Substring? {
        for line in lines {
            if let value = line.attributeValue(ifNamed: name) { return value }
        }
        return nil
    }

    /// `true` when an attribute named `name` is present, with or without a value.
    public func hasAttribute(named name: String) -> Bool {
        lines.contains { $0.isAttribute(named: name) }
    }

    /// Removes every attribute named `name`.
    public mutating func removeAttributes(named name: String) {
        lines.removeAll { $0.isAttribute(named: name) }
    }

    /// Appends `attribute` after the last line of this level.
    public mutating func appendAttribute(_ attribute: SDPAttribute) {
        lines.append(SDPLine(attribute))
    }

    /// Replaces every attribute named `name` with `replacements`, placed where the first one was (or at the
    /// end when there was none), so that an edit disturbs the original order as little as possible.
    public mutating func replaceAttributes(named name: String, with replacements: [SDPAttribute]) {
        replaceLines(where: { $0.isAttribute(named: name) }, with: replacements.map(SDPLine.init))
    }

    /// Sets the single attribute `name` to `value`, or removes it when `present` is false.
    mutating func setAttribute(_ name: String, value: String?, present: Bool = true) {
        replaceAttributes(named: name, with: present ? [SDPAttribute(name: name, value: value)] : [])
    }

    /// Replaces the lines matching `isTarget` by `replacements` at the position of the first match. With
    /// no match, each replacement goes where RFC 8866 §5 order puts its type.
    mutating func replaceLines(where isTarget: (SDPLine) -> Bool, with replacements: [SDPLine]) {
        if let first = lines.firstIndex(where: isTarget) {
            var kept = Array(lines[..<first])
            kept.append(contentsOf: replacements)
            kept.append(contentsOf: lines[first...].filter { !isTarget($0) })
            lines = kept
        } else {
            for line in replacements { insertInOrder(line) }
        }
    }

    /// Inserts `line` before the first line whose type must follow it (attributes go last).
    mutating func insertInOrder(_ line: SDPLine) {
        let rank = lineRank[line.type] ?? 13
        let index = lines.firstIndex { (lineRank[$0.type] ?? 13) > rank } ?? lines.endIndex
        lines.insert(line, at: index)
    }

    /// The values of the non-attribute lines of `type`, such as every `b=` line.
    func fieldValues(_ type: Character) -> [String] {
        lines.compactMap { $0.type == type ? $0.value : nil }
    }
}
