import Foundation
import JSONRPCWebSocket

/// Who may see the rooms (docs/operations.md#the-admin-token): the admin token in `Authorization: Bearer`, or a
/// session cookie from the dashboard's login form; never a token in a URL. Wrong tokens count against the peer
/// address (``AdminGuard``, ``OperationsConfiguration/adminGuessLimit``).
extension RoomServer {
    /// Where the dashboard's login form posts the token (`application/x-www-form-urlencoded`, field `token`).
    public static let dashboardLoginPath = "/dashboard/login"
    /// Where the dashboard's "Log out" button posts: ends the session and clears the cookie.
    public static let dashboardLogoutPath = "/dashboard/logout"
    /// The name of the session cookie a login sets.
    public static let adminSessionCookie = "room_server_admin"
    /// The largest `POST` body the server's port takes: the login form's.
    static let maxLoginBodySize = 1024

    /// The verdict on the credentials of a request: a live session cookie, else the bearer token.
    func adminVerdict(headers: [String: String], peer: String) -> AdminGuard.Verdict {
        if let session = Self.sessionID(cookieHeader: headers["cookie"]), adminGuard.isSession(session) {
            return .granted
        }
        return adminGuard.authorize(Self.bearerToken(headers["authorization"]), from: peer, isToken: isAdminToken)
    }

    /// The upgrade filter's answer for ``adminPath``. A session cookie is taken only from a page of this server's own
    /// origin (`Origin` names the `Host` the browser dialled): browsers send cookies along with a WebSocket any page
    /// opens, and `SameSite` does not tell ports apart.
    func adminUpgradeDecision(_ request: UpgradeRequest) -> UpgradeDecision {
        if let session = Self.sessionID(cookieHeader: request.headers["cookie"]), adminGuard.isSession(session) {
            return Self.isSameOrigin(request.headers["origin"], host: request.headers["host"]) ? .accept
                : .reject(status: 403, reason: "the admin session is for the dashboard's own origin")
        }
        switch adminGuard.authorize(Self.bearerToken(request.headers["authorization"]), from: request.peerAddress,
                                    isToken: isAdminToken) {
        case .granted: return .accept
        case .denied: return .reject(status: 401, reason: "admin token required (Authorization: Bearer)")
        case .lockedOut(let wait):
            return .reject(status: 429, reason: "too many wrong admin tokens: retry in \(Self.seconds(wait)) s")
        }
    }

    /// `GET /dashboard`: the page for a live session, the login form otherwise.
    func dashboard(_ request: HTTPRequest) -> HTTPResponse {
        if let session = Self.sessionID(cookieHeader: request.headers["cookie"]), adminGuard.isSession(session) {
            return HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: DashboardPage.html,
                                headers: Self.dashboardHeaders)
        }
        return DashboardLoginPage.response(status: 200)
    }

    /// `POST /dashboard/login`: the right token sets a session cookie and sends the browser to the dashboard (303);
    /// a wrong one gets the form again (401), a locked-out address 429.
    func login(_ request: HTTPRequest) -> HTTPResponse {
        let token = Self.formField("token", in: request.body)
        switch adminGuard.authorize(token, from: request.peerAddress, isToken: isAdminToken) {
        case .granted:
            let lifetime = Self.seconds(configuration.operations.adminSessionLifetime)
            return HTTPResponse(status: 303, headers: [
                "location": Self.dashboardPath, "cache-control": "no-store",
                "set-cookie": sessionCookie(adminGuard.openSession(), maxAge: lifetime),
            ])
        case .denied:
            return DashboardLoginPage.response(status: 401, notice: "That is not the admin token.")
        case .lockedOut(let wait):
            let seconds = Self.seconds(wait)
            return DashboardLoginPage.response(
                status: 429, notice: "Too many wrong tokens from this address: try again in \(seconds) s.",
                headers: ["retry-after": "\(seconds)"])
        }
    }

    /// `POST /dashboard/logout`: ends the session, clears the cookie, and shows the login form.
    func logout(_ request: HTTPRequest) -> HTTPResponse {
        if let session = Self.sessionID(cookieHeader: request.headers["cookie"]) { adminGuard.closeSession(session) }
        return HTTPResponse(status: 303, headers: ["location": Self.dashboardPath, "cache-control": "no-store",
                                                   "set-cookie": sessionCookie("", maxAge: 0)])
    }

    /// The `Set-Cookie` value of a session: for every path of this server, never readable by scripts, never sent by
    /// another site's page, and over TLS only when the server speaks TLS.
    func sessionCookie(_ id: String, maxAge: Int) -> String {
        "\(Self.adminSessionCookie)=\(id); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict"
            + (configuration.tls == nil ? "" : "; Secure")
    }

    /// The 401 or 429 of an API route (`/rooms`) for a verdict other than granted.
    static func refusal(_ verdict: AdminGuard.Verdict) -> HTTPResponse {
        if case .lockedOut(let wait) = verdict {
            let seconds = seconds(wait)
            return text(429, "too many wrong admin tokens: retry in \(seconds) s", headers: ["retry-after": "\(seconds)"])
        }
        return text(401, "admin token required (Authorization: Bearer)",
                    headers: ["www-authenticate": #"Bearer realm="room-server""#])
    }

    /// The token of an `Authorization: Bearer <token>` header, if any (`UpgradeRequest.bearerToken(authorization:)`).
    static func bearerToken(_ header: String?) -> String? { UpgradeRequest.bearerToken(authorization: header) }

    /// The session id in a `Cookie` header, if it names ``adminSessionCookie``.
    static func sessionID(cookieHeader: String?) -> String? {
        guard let cookieHeader else { return nil }
        for pair in cookieHeader.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == adminSessionCookie {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// Whether `origin` (`scheme://host[:port]`) names the authority in `host`.
    static func isSameOrigin(_ origin: String?, host: String?) -> Bool {
        guard let origin, let host, let range = origin.range(of: "://") else { return false }
        return origin[range.upperBound...].lowercased() == host.lowercased()
    }

    /// The decoded value of `name` in an `application/x-www-form-urlencoded` body.
    static func formField(_ name: String, in body: [UInt8]) -> String? {
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            let value = parts[1].replacingOccurrences(of: "+", with: " ")
            return value.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        }
        return nil
    }

    /// `duration` in whole seconds, rounded up (at least 1 for a positive one).
    static func seconds(_ duration: Duration) -> Int {
        let (whole, fraction) = duration.components
        return Int(whole) + (fraction > 0 ? 1 : 0)
    }
}
