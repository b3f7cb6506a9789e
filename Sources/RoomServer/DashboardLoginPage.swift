import JSONRPCWebSocket

/// The dashboard's login form (docs/operations.md#dashboard): served on `GET /dashboard` without a live session. It
/// posts the admin token to ``RoomServer/dashboardLoginPath`` in the request body, so the token is never in a URL
/// (browser history, proxy logs). No script at all.
enum DashboardLoginPage {
    /// The form with `notice` (fixed text of the server's, never anything from the request) above it.
    static func response(status: Int, notice: String? = nil, headers: [String: String] = [:]) -> HTTPResponse {
        let paragraph = notice.map { #"<p id="notice" role="alert">\#($0)</p>"# } ?? ""
        let html = top + paragraph + bottom
        return HTTPResponse(status: status, contentType: "text/html; charset=utf-8", body: html,
                            headers: RoomServer.loginHeaders.merging(headers) { _, given in given })
    }

    private static let top = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Log in · room-server</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; line-height: 1.4; }
  body { margin: 1.5rem 2rem; max-width: 32rem; }
  h1 { font-size: 1.4rem; }
  #notice { padding: 0.5rem 0.75rem; border-left: 4px solid #cf222e; background: #cf222e14; }
  label { display: block; margin-bottom: 0.3rem; }
  input { width: 100%; box-sizing: border-box; font: inherit; padding: 0.3rem; margin-bottom: 0.75rem; }
</style>
</head>
<body>
<h1>Rooms</h1>

"""#

    private static let bottom = #"""
<form method="post" action="/dashboard/login">
  <label for="token">Admin token</label>
  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
  <button type="submit">Log in</button>
</form>
</body>
</html>

"""#
}

extension RoomServer {
    /// The login form's headers: no caching, no referrer, no framing, no script, and a form that posts to this
    /// origin only.
    static let loginHeaders = [
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'",
    ]
}
