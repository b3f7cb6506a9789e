/// Why ``RoomTokenAuthorizer`` refuses a token or a join, and the HTTP status it answers the upgrade with.
public enum RoomTokenRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// No token: neither `Authorization: Bearer` nor `?access_token=`.
    case missing
    /// Not a JWT (three base64url parts of JSON), or its payload lacks `sub` or `exp`.
    case malformed
    /// Its header names another algorithm than HS256 (`none`, `RS256`, …).
    case wrongAlgorithm(String?)
    /// Its signature is not HS256 with this key.
    case badSignature
    /// Past its `exp`.
    case expired
    /// Before its `nbf`.
    case notYetValid
    /// Without `video.room`.
    case noRoom
    /// `video.roomJoin` is not `true`.
    case roomJoinNotGranted
    /// A `joinRoom` whose `user` is not the token's `sub`.
    case otherUser(token: String, join: String)
    /// A `joinRoom` of another room than the token's `video.room`.
    case otherRoom(token: String, join: String)

    /// The HTTP status of the refusal: 401 when the token is not valid, 403 when it is valid but does not allow this.
    public var status: Int {
        switch self {
        case .missing, .malformed, .wrongAlgorithm, .badSignature, .expired, .notYetValid, .noRoom: 401
        case .roomJoinNotGranted, .otherUser, .otherRoom: 403
        }
    }

    /// What is wrong, beginning with "unauthorized:" (401) or "forbidden:" (403), e.g.
    /// "forbidden: the access token is for user 'alice', not 'bob'".
    public var description: String {
        let why = switch self {
        case .missing: "an access token is required (Authorization: Bearer, or ?access_token=)"
        case .malformed: "the access token is not a JWT with sub and exp"
        case .wrongAlgorithm(let alg): "the access token is signed with \(alg ?? "no algorithm"), not HS256"
        case .badSignature: "the access token's signature does not match"
        case .expired: "the access token has expired"
        case .notYetValid: "the access token is not valid yet (nbf)"
        case .noRoom: "the access token names no room (video.room)"
        case .roomJoinNotGranted: "the access token does not grant roomJoin"
        case .otherUser(let token, let join): "the access token is for user '\(token)', not '\(join)'"
        case .otherRoom(let token, let join): "the access token is for room '\(token)', not '\(join)'"
        }
        return (status == 401 ? "unauthorized: " : "forbidden: ") + why
    }
}
