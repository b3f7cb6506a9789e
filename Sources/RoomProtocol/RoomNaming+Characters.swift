extension RoomNaming {
    /// Checks that `name` holds only letters, marks, numbers, punctuation, symbols and spaces: no control
    /// characters, no format characters (zero-width spaces and joiners, soft hyphens, the bidi controls that
    /// reorder what follows, such as U+202E), no line or paragraph separators, no private-use or unassigned code
    /// points (docs/wire-protocol.md#room-naming). The refusal names the first offending code point, never the name,
    /// which could reorder or break the text it is shown in.
    /// - Parameters:
    ///   - name: The name to check.
    ///   - what: How the message names it ("User name", "Room name").
    /// - Throws: ``RoomError`` 999 (``RoomErrorCode/generic``).
    public static func checkCharacters(_ name: String, of what: String) throws(RoomError) {
        guard let scalar = name.unicodeScalars.first(where: { refusedKind($0) != nil }), let kind = refusedKind(scalar)
        else { return }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        throw RoomError(.generic, message: "\(what) must not contain \(code) (\(kind))")
    }

    /// What kind of refused code point `scalar` is, or `nil` when a name may hold it.
    private static func refusedKind(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.properties.generalCategory {
        case .control: "a control character"
        case .format: "a format or bidi character"
        case .lineSeparator, .paragraphSeparator: "a line or paragraph separator"
        case .privateUse: "a private-use character"
        case .unassigned, .surrogate: "an unassigned code point"
        default: nil
        }
    }
}
