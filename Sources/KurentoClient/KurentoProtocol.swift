import JSONRPC

/// The Kurento Protocol's wire vocabulary (docs/kurento.md#wire): the methods KMS serves on `ws://HOST:8888/kurento`
/// and the params each takes, as the protocol documentation gives them (Kurento/kurento
/// `doc-kurento/source/features/kurento_protocol.rst`) and KMS reads them (Kurento/kurento
/// `server/media-server/server/ServerMethods.cpp`). Every request of a session carries `sessionId` in its params;
/// ``KurentoClient`` adds it.
enum KurentoProtocol {
    /// `create {type, constructorParams, properties}` → `{value: <object id>, sessionId}`.
    static let create = "create"
    /// `invoke {object, operation, operationParams?}` → `{value: <return value or null>, sessionId}`.
    static let invoke = "invoke"
    /// `subscribe {type, object}` → `{value: <subscription id>, sessionId}`.
    static let subscribe = "subscribe"
    /// `unsubscribe {subscription, object}` → `{sessionId}`; never an error.
    static let unsubscribe = "unsubscribe"
    /// `release {object}` → `{sessionId}`; an unknown or released object is not an error.
    static let release = "release"
    /// `connect {sessionId?}` → `{sessionId, serverId}`; an unknown `sessionId` is 40007.
    static let connect = "connect"
    /// The notification that carries every event: `onEvent {value: {data, object, type}}`.
    static let onEvent = "onEvent"

    static func createParams(type: String, constructorParams: [String: JSONValue]) -> [String: JSONValue] {
        ["type": .string(type), "constructorParams": .object(constructorParams), "properties": .object([:])]
    }

    static func invokeParams(object: String, operation: String, operationParams: [String: JSONValue]?)
        -> [String: JSONValue]
    {
        var params: [String: JSONValue] = ["object": .string(object), "operation": .string(operation)]
        if let operationParams { params["operationParams"] = .object(operationParams) }
        return params
    }

    static func subscribeParams(object: String, type: String) -> [String: JSONValue] {
        ["type": .string(type), "object": .string(object)]
    }

    static func unsubscribeParams(object: String, subscription: String) -> [String: JSONValue] {
        ["subscription": .string(subscription), "object": .string(object)]
    }

    static func releaseParams(object: String) -> [String: JSONValue] { ["object": .string(object)] }

    /// The `value` of a result (`{"value": …, "sessionId": …}`); `null` for a void method.
    static func value(of result: JSONValue) -> JSONValue { result["value"] ?? .null }

    /// The id of the object a `create` made, from its result.
    static func objectId(of result: JSONValue, operation: String) throws(KurentoError) -> String {
        guard let id = result["value"]?.stringValue, !id.isEmpty else {
            throw KurentoError.invalidResponse("'\(operation)' answered \(result.redactingSessionIds.jsonText.prefix(200)), not an object id")
        }
        return id
    }
}
