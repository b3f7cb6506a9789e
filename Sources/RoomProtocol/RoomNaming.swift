/// Naming rules shared by Room clients and servers.
public enum RoomNaming {
    /// The stream id every Kurento client publishes under (`{"id": "webcam"}`, `sender = "<user>_webcam"`).
    /// NBMRoomClient hard-codes it (docs/wire-protocol.md#room-client-bugs, bug 5); here it is only a default.
    public static let defaultStreamId = "webcam"

    /// The separator between user and stream in `sender` (docs/wire-protocol.md#room-naming).
    public static let senderSeparator: Character = "_"

    /// Checks a user name as a server must (docs/wire-protocol.md#room-naming): not empty, no `_`
    /// (docs/wire-protocol.md#room-naming: the server keeps only the part of `sender` before the first `_`, so such a
    /// user could never be received from), no control character.
    /// - Throws: ``RoomError`` 999 (``RoomErrorCode/generic``) with the reason.
    public static func validateUserName(_ name: String) throws(RoomError) {
        if name.isEmpty {
            throw RoomError(.generic, message: "Empty user name is not allowed")
        }
        if name.contains(senderSeparator) {
            throw RoomError(.generic, message: "User name '\(name)' must not contain '\(senderSeparator)'")
        }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw RoomError(.generic, message: "User name \(name.debugDescription) must not contain control characters")
        }
    }
}
