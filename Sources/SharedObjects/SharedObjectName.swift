public import JSONRPC

/// Rules for object names: any non-empty string of at most ``maxLength`` UTF-8 bytes without control
/// characters. A `room:` prefix scopes an object to a room's members: `room:<room>/<name>`, where `<room>` is the
/// room's name with every `%` written `%25` and every `/` written `%2F` (``roomScoped(_:in:)`` writes it), so that
/// the room ends at the first `/` whatever the room and object are called: `room:team/secret/notes` is room
/// `team`'s object `secret/notes`, and `room:team%2Fsecret/notes` is room `team/secret`'s object `notes`.
public enum SharedObjectName {
    /// The longest name, in UTF-8 bytes.
    public static let maxLength = 256
    /// The prefix of room-scoped names.
    public static let roomPrefix = "room:"

    /// Checks `name`, throwing -32602 with the reason when it breaks the rules.
    public static func validate(_ name: String) throws(RPCErrorObject) {
        if name.isEmpty { throw .invalidParams("param 'name' must not be empty") }
        if name.utf8.count > maxLength { throw .invalidParams("param 'name' is longer than \(maxLength) bytes") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw .invalidParams("param 'name' must not contain control characters")
        }
    }

    /// The name of the object `name` of room `room`'s members: `room:` + the room escaped + `/` + `name`
    /// (`roomScoped("notes", in: "team/secret")` is `room:team%2Fsecret/notes`).
    public static func roomScoped(_ name: String, in room: String) -> String {
        var escaped = ""
        for character in room.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "/": escaped += "%2F"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return roomPrefix + escaped + "/" + name
    }

    /// The room of a room-scoped name (`room:demo/color` → `demo`, `room:team%2Fsecret/notes` → `team/secret`);
    /// `nil` when `name` has no `room:` prefix.
    /// - Throws: -32602 when the prefix is there but the form is not `room:<room>/<name>` with both parts non-empty,
    ///   or the room holds a `%` that is not `%25` or `%2F`.
    public static func room(of name: String) throws(RPCErrorObject) -> String? {
        guard name.hasPrefix(roomPrefix) else { return nil }
        let rest = name.dropFirst(roomPrefix.count)
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex, rest.index(after: slash) != rest.endIndex
        else { throw .invalidParams("param 'name': a room-scoped name is 'room:<room>/<name>'") }
        return try unescapeRoom(rest[..<slash])
    }

    /// `%25` → `%`, `%2F` → `/`; any other `%` is refused, so that every room has one spelling.
    private static func unescapeRoom(_ escaped: Substring) throws(RPCErrorObject) -> String {
        var room = ""
        var rest = escaped.unicodeScalars[...]
        while let first = rest.popFirst() {
            guard first == "%" else {
                room.unicodeScalars.append(first)
                continue
            }
            let code = String(String.UnicodeScalarView(rest.prefix(2)))
            rest = rest.dropFirst(2)
            switch code {
            case "25": room += "%"
            case "2F": room += "/"
            default:
                throw .invalidParams("param 'name': in 'room:<room>/<name>', the room's '%' is written %25 and its '/' %2F")
            }
        }
        return room
    }
}
