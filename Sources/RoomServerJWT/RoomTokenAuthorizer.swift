public import Foundation
public import JSONRPCWebSocket
import JWTKit
import RoomProtocol
public import RoomServer

/// A `RoomServer` authorizer for JSON Web Tokens that name the user and the room, as LiveKit's and OpenVidu's access
/// tokens do (``RoomAccessClaims``), signed with HS256 (docs/operations.md#room-access-tokens).
///
/// ```swift
/// var configuration = RoomServer.Configuration()
/// let tokens = try await RoomTokenAuthorizer(keyFile: "/run/secrets/room-jwt-key")
/// tokens.install(on: &configuration)
/// let server = try await RoomServer.start(configuration)
/// ```
///
/// Once installed, a client sends its token as `Authorization: Bearer …` (or `?access_token=`, as LiveKit's clients
/// and browsers do), and:
/// - an upgrade without a token, or with one that is malformed, not HS256 (`alg: none`, `RS256`, …), not signed with
///   the key, expired (`exp`) or not valid yet (`nbf`), is answered HTTP 401 before the handshake; one whose
///   `video.roomJoin` is not `true` HTTP 403 (``upgradeFilter(_:)``). Clients take both as final;
/// - a `joinRoom` whose `user` or `room` differ from the token's `sub` and `video.room` is refused with Room error
///   401 and a message that says why, e.g. "forbidden: the access token is for room 'demo', not 'other'"
///   (``authorizeJoin(_:)``), and so is a join with a token that has expired since the connection opened;
/// - a session belongs to the token's `sub` (``principal(of:)``), so a client that reconnects with a fresh token of
///   the same user resumes its session, and nobody else can.
///
/// Every check is synchronous and cheap (one HMAC-SHA256), so the whole token is judged before the handshake.
public struct RoomTokenAuthorizer: Sendable {
    /// The shortest HMAC key accepted: 32 bytes, the size of an HS256 hash (RFC 7518 §3.2).
    public static let minimumKeyLength = 32

    /// Why a key cannot be used.
    public struct KeyError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong with it, e.g. "the key has 12 bytes; HS256 needs at least 32 (openssl rand -hex 32)".
        public var description: String
    }

    /// For signing (``token(for:)``).
    private let keys: JWTKeyCollection
    /// The same key, for verifying synchronously.
    private let algorithm: any JWTAlgorithm
    private let parser = DefaultJWTParser()

    /// An authorizer for tokens signed with HS256 and `key`.
    /// - Throws: ``KeyError`` for a key shorter than ``minimumKeyLength`` bytes.
    public init(hmacKey key: some DataProtocol) async throws {
        guard key.count >= Self.minimumKeyLength else {
            throw KeyError(description: "the key has \(key.count) bytes; HS256 needs at least \(Self.minimumKeyLength) "
                                        + "(openssl rand -hex 32)")
        }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256)
        algorithm = try await keys.getKey()
    }

    /// An authorizer for tokens signed with HS256 and the key in the file at `path`: its bytes, without a final line
    /// break (`openssl rand -hex 32 > key` makes a key of 64 bytes, the hex text itself).
    /// - Throws: ``KeyError`` when the file cannot be read or its key is too short.
    public init(keyFile path: String) async throws {
        guard var key = FileManager.default.contents(atPath: path) else {
            throw KeyError(description: "cannot read the key file \(path)")
        }
        while let last = key.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { key.removeLast() }
        try await self.init(hmacKey: key)
    }

    /// The claims of `token` when it is an HS256 JWT signed with this key and valid at `date` (`exp`, `nbf`).
    /// - Throws: ``RoomTokenRefusal`` saying why not.
    public func claims(of token: String, at date: Date = Date()) throws(RoomTokenRefusal) -> RoomAccessClaims {
        try verifiedPayload(of: token).claims(at: date)
    }

    /// The payload of `token` once its algorithm and signature are checked (not its times).
    private func verifiedPayload(of token: String) throws(RoomTokenRefusal) -> AccessTokenPayload {
        let bytes = Array(token.utf8)
        let header: JWTHeader, payload: AccessTokenPayload, signature: Data
        do {
            (header, payload, signature) = try parser.parse(bytes, as: AccessTokenPayload.self)
        } catch {
            throw .malformed
        }
        // jwt-kit's own verify does not compare the header's `alg` with the key's: we do, so that nothing but HS256
        // passes, whatever its signature.
        guard header.alg == algorithm.name else { throw .wrongAlgorithm(header.alg) }
        // parse succeeded, so there are exactly two periods; the signature covers everything before the second.
        guard let signed = bytes.lastIndex(of: UInt8(ascii: ".")),
              (try? algorithm.verify(signature, signs: bytes[..<signed])) == true else { throw .badSignature }
        return payload
    }

    /// A token carrying `claims`, signed with this key (for a token service, and for tests).
    public func token(for claims: RoomAccessClaims) async throws -> String {
        try await keys.sign(AccessTokenPayload(claims))
    }

    /// The check before the handshake (``/RoomServer/RoomServer/Configuration/upgradeFilter``): HTTP 401 without a
    /// valid token (``claims(of:at:)``), 403 for one that does not grant `roomJoin`; the reason is the refusal's
    /// ``RoomTokenRefusal/description``.
    public func upgradeFilter(_ request: UpgradeRequest) -> UpgradeDecision {
        do throws(RoomTokenRefusal) {
            guard let token = request.bearerToken else { throw .missing }
            guard try claims(of: token).roomJoin else { throw .roomJoinNotGranted }
            return .accept
        } catch {
            return .reject(status: error.status, reason: error.description)
        }
    }

    /// The check at each `joinRoom` (``/RoomServer/RoomServer/Configuration/authorizeJoin``): the token of the
    /// attempt's connection is still valid, grants `roomJoin`, and its `sub` and `video.room` are the join's user and
    /// room (in their NFKC form, as the server compares names).
    /// - Throws: ``RoomTokenRefusal`` saying why not.
    public func authorizeJoin(_ attempt: RoomJoinAttempt) throws(RoomTokenRefusal) {
        guard let token = attempt.bearerToken else { throw .missing }
        let claims = try claims(of: token)
        guard claims.roomJoin else { throw .roomJoinNotGranted }
        guard RoomNaming.normalized(claims.user) == attempt.user else {
            throw .otherUser(token: claims.user, join: attempt.user)
        }
        guard RoomNaming.normalized(claims.room) == attempt.room else {
            throw .otherRoom(token: claims.room, join: attempt.room)
        }
    }

    /// Who an upgrade speaks for (``/RoomServer/RoomServer/Configuration/sessionPrincipal``): its token's `sub` (NFKC)
    /// when the token is signed with this key, whatever its times; `nil` otherwise.
    public func principal(of request: UpgradeRequest) -> String? {
        guard let token = request.bearerToken, let payload = try? verifiedPayload(of: token) else { return nil }
        return RoomNaming.normalized(payload.sub.value)
    }

    /// Makes `configuration` authorize with this: its ``upgradeFilter(_:)`` after the one already set (if that one
    /// accepts), ``authorizeJoin(_:)`` before the one set (a refusal answers Room error 401 with the refusal's
    /// ``RoomTokenRefusal/description``), and ``principal(of:)`` as the session principal. Its `authorizeUpgrade`, if
    /// any, stays as it is.
    public func install(on configuration: inout RoomServer.Configuration) {
        let earlierFilter = configuration.upgradeFilter
        configuration.upgradeFilter = { request in
            if let decision = earlierFilter?(request), decision != .accept { return decision }
            return self.upgradeFilter(request)
        }
        let earlierJoin = configuration.authorizeJoin
        configuration.authorizeJoin = { attempt in
            do throws(RoomTokenRefusal) {
                try self.authorizeJoin(attempt)
            } catch {
                throw RoomError(.unauthorized, message: error.description)
            }
            return try await earlierJoin(attempt)
        }
        configuration.sessionPrincipal = { self.principal(of: $0) }
    }
}
