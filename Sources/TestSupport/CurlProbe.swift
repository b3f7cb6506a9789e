import Foundation

/// `curl` as an independent HTTP client (docs/testing.md#witnesses), for what a browser-like client negotiates:
/// HTTP/2 over TLS when the server offers it (curl's default for `https://`).
public enum CurlProbe {
    /// Whether `curl` is installed.
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    static let executable = "/usr/bin/curl"

    /// What one `curl` run saw: its exit status, and the `-w` line and body it printed (or why it failed).
    public struct Fetch: Sendable {
        /// curl's exit status (0: a response arrived, whatever its status).
        public var exitStatus: Int32
        /// The HTTP status of the response; nil without one.
        public var status: Int?
        /// The HTTP version the exchange used, as curl names it (`1.1`, `2`).
        public var httpVersion: String?
        /// The response body, then curl's own messages.
        public var output: String
    }

    /// `curl` fetching `url` with `options` (e.g. `["--http2", "--cacert", ca]`); the body and curl's errors are
    /// in ``Fetch/output``.
    public static func fetch(_ url: String, _ options: [String] = []) async throws -> Fetch {
        let marker = "\ncurl-probe: "
        let arguments = ["--silent", "--show-error", "--max-time", "15",
                         "--write-out", marker + "%{http_code} %{http_version}\n"] + options + [url]
        let (status, output) = try await OpenSSLProbe.run(arguments, input: Data(), executable: executable)
        var fetch = Fetch(exitStatus: status, output: output)
        if let range = output.range(of: marker, options: .backwards) {
            let fields = output[range.upperBound...].split(whereSeparator: \.isWhitespace)
            fetch.status = fields.first.flatMap { Int($0) }.flatMap { $0 == 0 ? nil : $0 }
            fetch.httpVersion = fields.dropFirst().first.map(String.init)
            fetch.output = String(output[..<range.lowerBound])
        }
        return fetch
    }
}
