import Foundation

/// Naming rules shared by Room clients and servers (docs/wire-protocol.md#room-naming): what a user or room name may
/// hold, its NFKC form, and its confusable skeleton (``skeleton(_:)``).
public enum RoomNaming {
    /// The stream id every Kurento client publishes under (`{"id": "webcam"}`, `sender = "<user>_webcam"`).
    /// NBMRoomClient hard-codes it (docs/wire-protocol.md#room-client-bugs, bug 5); here it is only a default.
    public static let defaultStreamId = "webcam"

    /// The separator between user and stream in `sender` (docs/wire-protocol.md#room-naming).
    public static let senderSeparator: Character = "_"

    /// The longest user or room name, in UTF-8 bytes; a longer one gets 999 without being echoed (huge strings,
    /// docs/wire-protocol.md#limits).
    public static let maxNameBytes = 256

    /// Checks a user name as a server must (docs/wire-protocol.md#room-naming): not empty, at most
    /// ``maxNameBytes``, only letters, marks, numbers, punctuation, symbols and spaces (``checkCharacters(_:of:)``),
    /// and no `_` (the server keeps only the part of `sender` before the first `_`, so such a user could never be
    /// received from). It checks the name as given; a server checks its NFKC form (``normalizedUserName(_:)``).
    /// - Throws: ``RoomError`` 999 (``RoomErrorCode/generic``) with the reason.
    public static func validateUserName(_ name: String) throws(RoomError) {
        if name.isEmpty {
            throw RoomError(.generic, message: "Empty user name is not allowed")
        }
        try checkLength(name, of: "user")
        try checkCharacters(name, of: "User name")
        if name.contains(senderSeparator) {
            throw RoomError(.generic, message: "User name '\(name)' must not contain '\(senderSeparator)'")
        }
    }

    /// Checks a room name as a server must: at most ``maxNameBytes``, and the characters of
    /// ``checkCharacters(_:of:)`` (a newline could forge a log line, or split a cluster's `room\nuser` entries). An
    /// empty room is a bad param, which the server answers with -32602 before asking this.
    /// - Throws: ``RoomError`` 999 (``RoomErrorCode/generic``) with the reason.
    public static func validateRoomName(_ name: String) throws(RoomError) {
        try checkLength(name, of: "room")
        try checkCharacters(name, of: "Room name")
    }

    /// The NFKC form of `name` (Unicode compatibility composition: fullwidth `ａ` is `a`, the ligature `ﬁ` is `fi`,
    /// `e` with a combining acute is `é`), which a server uses as the name everywhere.
    public static func normalized(_ name: String) -> String {
        name.utf8.allSatisfy { $0 < 0x80 } ? name : name.precomposedStringWithCompatibilityMapping
    }

    /// `name` in NFKC form, once it passed ``validateUserName(_:)`` (the length is checked before the normalization
    /// too, so that a huge name costs nothing).
    public static func normalizedUserName(_ name: String) throws(RoomError) -> String {
        try checkLength(name, of: "user")
        let normalized = normalized(name)
        try validateUserName(normalized)
        return normalized
    }

    /// `name` in NFKC form, once it passed ``validateRoomName(_:)``.
    public static func normalizedRoomName(_ name: String) throws(RoomError) -> String {
        try checkLength(name, of: "room")
        let normalized = normalized(name)
        try validateRoomName(normalized)
        return normalized
    }

    private static func checkLength(_ name: String, of what: String) throws(RoomError) {
        let bytes = name.utf8.count
        if bytes > maxNameBytes {
            throw RoomError(.generic, message: "\(what) name of \(bytes) bytes exceeds \(maxNameBytes)")
        }
    }
}
