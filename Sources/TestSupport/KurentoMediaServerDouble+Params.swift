import Foundation

extension KurentoMediaServerDouble {
    // MARK: Top-level params (JRU)

    /// KMS: SM7 `requireParams`: `params` must be an object; -32602 with data type INVALID_PARAMS otherwise.
    static func requireParams(_ params: Any?) throws(RequestFailure) -> [String: Any] {
        guard let params = params as? [String: Any] else {
            throw RequestFailure(code: -32602, message: "'params' is required", type: "INVALID_PARAMS")
        }
        return params
    }

    /// KMS: JRU `getValue` (string): -32000 `'<name>' parameter is required` / `… should be a string`, no data.
    static func requireString(_ params: [String: Any], _ name: String) throws(RequestFailure) -> String {
        guard let value = params[name] else { throw .serverError("'\(name)' parameter is required") }
        guard let string = value as? String, kind(of: value) == .string else {
            throw .serverError("'\(name)' parameter should be a string")
        }
        return string
    }

    /// A top-level string param that may be absent (JRU `getValue` with a default).
    static func optionalString(_ params: [String: Any], _ name: String) throws(RequestFailure) -> String? {
        guard params[name] != nil else { return nil }
        return try requireString(params, name)
    }

    /// KMS: SM7 `getOrCreateSessionId`: `params.sessionId`, or a new UUID for this request.
    static func sessionID(_ params: [String: Any]) throws(RequestFailure) -> String {
        try optionalString(params, "sessionId") ?? World.uuid()
    }

    // MARK: Operation and constructor params (TPL-MARSH)

    /// The types of the generated unmarshalling, with the name its error message gives them.
    enum MarshalType {
        case string, integer, boolean, object

        /// The `getTypeDescription()` of the message (an inference: the generator's table is not in the research).
        var description: String {
            switch self {
            case .string: "string"
            case .integer: "integer"
            case .boolean: "boolean"
            case .object: "object"
            }
        }
    }

    /// KMS: TPL-MARSH: `operationParams` / `constructorParams` (`what`) must be an object when the call has a
    /// required param (`'<what>' is required` when absent), and may be absent otherwise, never another type.
    static func paramsObject(_ value: Any?, _ what: String, required: Bool) throws(RequestFailure) -> [String: Any] {
        switch kind(of: value) {
        case .null:
            if required { throw .marshall("'\(what)' is required") }
            return [:]
        case .object:
            return value as? [String: Any] ?? [:]
        default:
            throw .marshall("'\(what)' should be an object")
        }
    }

    /// KMS: TPL-MARSH: a param is read when `isX() || isConvertibleTo(X)` (jsoncpp's convertibility: a string from
    /// any scalar and null, a number from numbers, booleans and null, …); otherwise, and when a required one is
    /// missing, 40001 `'<name>' parameter should be a <type>`. Returns the converted value (`nil`: absent, optional).
    static func marshal(_ params: [String: Any], _ name: String, _ type: MarshalType, required: Bool) throws(RequestFailure)
        -> Any?
    {
        guard let value = params[name] else {
            if required { throw .marshall("'\(name)' parameter should be a \(type.description)") }
            return nil
        }
        let kind = kind(of: value)
        let number = value as? NSNumber
        switch (type, kind) {
        case (.string, .string): return value
        case (.string, .null): return ""
        case (.string, .bool): return number?.boolValue == true ? "true" : "false"
        case (.string, .int): return number.map { "\($0.int64Value)" }
        case (.string, .real): return number.map { "\($0.doubleValue)" }
        case (.integer, .int), (.integer, .real), (.integer, .bool): return number?.intValue ?? 0
        case (.integer, .null): return 0
        case (.boolean, .bool), (.boolean, .int), (.boolean, .real): return number?.boolValue ?? false
        case (.boolean, .null): return false
        case (.object, .object): return value
        case (.object, .null): return [String: Any]()
        default: throw .marshall("'\(name)' parameter should be a \(type.description)")
        }
    }

    static func marshalString(_ params: [String: Any], _ name: String) throws(RequestFailure) -> String {
        try marshal(params, name, .string, required: true) as? String ?? ""
    }

    /// The number of members of `operationParams` (jsoncpp `size()`: 0 for null and scalars), for 40008.
    static func memberCount(_ value: Any?) -> Int {
        switch value {
        case let object as [String: Any]: object.count
        case let array as [Any]: array.count
        default: 0
        }
    }
}
