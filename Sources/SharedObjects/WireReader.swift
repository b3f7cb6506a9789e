import JSONRPC

/// Reads the members of one wire object, failing with -32602 naming the param (docs/wire-protocol.md#error-codes).
struct WireReader {
    let members: [String: JSONValue]
    let context: String

    init(_ json: JSONValue?, _ context: String) throws(RPCErrorObject) {
        guard case .object(let members)? = json else { throw .invalidParams("\(context): params must be an object") }
        self.members = members
        self.context = context
    }

    func string(_ key: String) throws(RPCErrorObject) -> String {
        guard let value = members[key] else { throw missing(key) }
        guard case .string(let string) = value else { throw mistyped(key, "a string") }
        return string
    }

    func optionalString(_ key: String) throws(RPCErrorObject) -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value else { throw mistyped(key, "a string") }
        return string
    }

    func int(_ key: String) throws(RPCErrorObject) -> Int {
        guard let value = members[key] else { throw missing(key) }
        guard case .int(let int) = value else { throw mistyped(key, "an integer") }
        return int
    }

    func bool(_ key: String, default fallback: Bool) throws(RPCErrorObject) -> Bool {
        guard let value = members[key] else { return fallback }
        guard case .bool(let bool) = value else { throw mistyped(key, "a boolean") }
        return bool
    }

    func object(_ key: String) throws(RPCErrorObject) -> [String: JSONValue] {
        guard let value = members[key] else { throw missing(key) }
        guard case .object(let object) = value else { throw mistyped(key, "an object") }
        return object
    }

    private func missing(_ key: String) -> RPCErrorObject { .invalidParams("\(context): missing param '\(key)'") }
    private func mistyped(_ key: String, _ kind: String) -> RPCErrorObject {
        .invalidParams("\(context): param '\(key)' must be \(kind)")
    }
}
