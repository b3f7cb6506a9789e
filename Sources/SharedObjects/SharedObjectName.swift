public import JSONRPC

/// Rules for object names: any non-empty string of at most ``maxLength`` UTF-8 bytes without control
/// characters. A `room:` prefix scopes an object to a room's members: `room:<room>/<name>`.
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

    /// The room of a room-scoped name (`room:demo/color` → `demo`); `nil` when `name` has no `room:` prefix.
    /// - Throws: -32602 when the prefix is there but the form is not `room:<room>/<name>` with both parts non-empty.
    public static func room(of name: String) throws(RPCErrorObject) -> String? {
        guard name.hasPrefix(roomPrefix) else { return nil }
        let rest = name.dropFirst(roomPrefix.count)
        guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex, rest.index(after: slash) != rest.endIndex
        else { throw .invalidParams("param 'name': a room-scoped name is 'room:<room>/<name>'") }
        return String(rest[..<slash])
    }
}
