/// The result of a call whose result does not matter, such as the `{}` of a method that only acknowledges:
/// `try await client.call("stop", params: StopParams(id: 7), as: EmptyResult.self)`, without a type of your own.
///
/// It decodes from any JSON object, whatever its members (`{}`, or Kurento's `{"sessionId": …}`,
/// docs/wire-protocol.md#kurento-conventions), and from `null`; anything else (a string, a number, an array) does
/// not decode, so a typed call fails with ``RPCError/invalidResponse(_:)``. It encodes as `{}`: a typed handler (a
/// server method, a room server's custom request) returns it for an empty result.
public struct EmptyResult: Codable, Sendable, Hashable {
    /// The empty result.
    public init() {}

    /// Decodes from an object (its members are ignored) or `null`.
    public init(from decoder: any Decoder) throws {
        if (try? decoder.container(keyedBy: AnyMember.self)) != nil { return }
        let single = try decoder.singleValueContainer()
        guard single.decodeNil() else {
            throw DecodingError.typeMismatch(EmptyResult.self, .init(
                codingPath: decoder.codingPath, debugDescription: "expected an object or null"))
        }
    }

    /// Encodes `{}`.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: AnyMember.self)
    }

    /// Any member name: the members are not read.
    private struct AnyMember: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
