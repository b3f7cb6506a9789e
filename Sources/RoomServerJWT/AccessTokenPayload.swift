import Foundation
import JWTKit

/// The JWT payload of ``RoomAccessClaims`` as jwt-kit reads and writes it (LiveKit's claim names). Unknown claims and
/// grants (`name`, `metadata`, `video.canPublish`, …) are ignored.
struct AccessTokenPayload: JWTPayload {
    /// The `video` grant (LiveKit's name): the room and whether it may be joined.
    struct VideoGrant: Codable, Sendable {
        var room: String?
        var roomJoin: Bool?
    }

    var sub: SubjectClaim
    var video: VideoGrant?
    var exp: ExpirationClaim
    var nbf: NotBeforeClaim?
    var iss: IssuerClaim?

    init(_ claims: RoomAccessClaims) {
        sub = SubjectClaim(value: claims.user)
        video = VideoGrant(room: claims.room, roomJoin: claims.roomJoin)
        exp = ExpirationClaim(value: claims.expires)
        nbf = claims.notBefore.map { NotBeforeClaim(value: $0) }
        iss = claims.issuer.map { IssuerClaim(value: $0) }
    }

    /// The claims, when the token is valid at `date`.
    /// - Throws: ``RoomTokenRefusal`` `.expired`, `.notYetValid`, or `.noRoom` without `video.room`.
    func claims(at date: Date) throws(RoomTokenRefusal) -> RoomAccessClaims {
        guard date < exp.value else { throw .expired }
        if let nbf, date < nbf.value { throw .notYetValid }
        guard let room = video?.room, !room.isEmpty else { throw .noRoom }
        return RoomAccessClaims(user: sub.value, room: room, roomJoin: video?.roomJoin ?? false, expires: exp.value,
                                notBefore: nbf?.value, issuer: iss?.value)
    }

    /// jwt-kit's own check (RoomTokenAuthorizer verifies without it, synchronously, through ``claims(at:)``).
    func verify(using algorithm: some JWTAlgorithm) async throws {
        _ = try claims(at: Date())
    }
}
