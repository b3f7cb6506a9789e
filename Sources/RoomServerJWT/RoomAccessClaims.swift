public import Foundation

/// What a room access token says (LiveKit's claim names, docs/operations.md#room-access-tokens): who the user is, which
/// room it may join, and when the token is valid.
///
/// In the token's JSON:
///
/// ```json
/// {"sub": "alice", "video": {"room": "demo", "roomJoin": true}, "nbf": 1764000000, "exp": 1764003600, "iss": "my-app"}
/// ```
///
/// - `sub`: the user name the token holder joins as (a `joinRoom` with another `user` is refused, Room error 401
///   "forbidden: …"); it is also the session's principal;
/// - `video.room`: the one room it may join (a `joinRoom` of another room is refused likewise; a token without it
///   is not valid);
/// - `video.roomJoin`: must be `true`, else the upgrade is refused with HTTP 403;
/// - `exp` (required) and `nbf` (optional): seconds since 1970; outside them the upgrade is refused with HTTP 401;
/// - `iss`: the issuer, not checked (kept for the embedder's own checks).
///
/// Other claims and grants (`name`, `metadata`, `video.canPublish`, …) are ignored.
public struct RoomAccessClaims: Sendable, Hashable {
    /// `sub`: the user name.
    public var user: String
    /// `video.room`: the room the user may join.
    public var room: String
    /// `video.roomJoin`: whether the token allows joining at all.
    public var roomJoin: Bool
    /// `exp`: the token is refused from this moment on.
    public var expires: Date
    /// `nbf`: the token is refused before this moment; `nil`: valid at once.
    public var notBefore: Date?
    /// `iss`: who issued the token, if it says.
    public var issuer: String?

    /// Creates claims; `roomJoin` is `true` unless said otherwise.
    public init(user: String, room: String, roomJoin: Bool = true, expires: Date, notBefore: Date? = nil,
                issuer: String? = nil) {
        self.user = user
        self.room = room
        self.roomJoin = roomJoin
        self.expires = expires
        self.notBefore = notBefore
        self.issuer = issuer
    }
}
