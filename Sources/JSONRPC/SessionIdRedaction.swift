import SignalingSupport

extension JSONValue {
    /// This value with the string of every `sessionId` member, at any depth, shortened to its log-safe prefix
    /// (`SecureID.redacted`: `68b66a…`). Session ids are bearer credentials (docs/architecture.md#identity): an
    /// error's description and a log line show only this form.
    public var redactingSessionIds: JSONValue {
        switch self {
        case .object(let members):
            var redacted = [String: JSONValue](minimumCapacity: members.count)
            for (key, value) in members {
                if key == "sessionId", case .string(let id) = value {
                    redacted[key] = .string(SecureID.redacted(id))
                } else {
                    redacted[key] = value.redactingSessionIds
                }
            }
            return .object(redacted)
        case .array(let items):
            return .array(items.map(\.redactingSessionIds))
        default:
            return self
        }
    }
}
