import ArgumentParser
import Logging
import RoomClient
import WebSocketTransport

/// How `room-join` connects: the request timeout and retries, the bearer token, TLS trust and logging.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "Seconds to wait for the WebSocket handshake, and for each response (the first attempt; each retry doubles it).")
    var timeout: Double = 5

    @Option(help: "Re-sends of a request after a timeout (use 0 against a stock Kurento server).")
    var retries: Int = 1

    @Option(help: "A bearer token, sent as 'Authorization: Bearer TOKEN' on the WebSocket upgrade.")
    var token: String?

    @Option(help: "A PEM file of CA certificates to trust for wss:// instead of the system store.")
    var caFile: String?

    @Flag(help: "For wss://: accept a self-signed certificate and skip the host name check (a certificate from an unknown CA still needs --ca-file).")
    var insecure = false

    @Option(help: "The least severe level logged to stderr (default: nothing is logged).")
    var logLevel: Logger.Level?

    func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number") }
        guard retries >= 0 else { throw ValidationError("--retries must not be negative") }
    }

    /// The RoomClient settings these options make.
    var configuration: RoomClient.Configuration {
        var configuration = RoomClient.Configuration(requestTimeout: .milliseconds(Int(timeout * 1000)),
                                                     retries: retries, authToken: token)
        // A listener that never completes the handshake must not hold the run longer than --timeout (issue 8).
        configuration.webSocket.handshakeTimeout = min(configuration.webSocket.handshakeTimeout,
                                                       .milliseconds(Int(timeout * 1000)))
        configuration.webSocket.tls = TLSClientConfiguration(caFile: caFile, allowSelfSigned: insecure,
                                                             skipHostnameCheck: insecure)
        if let logLevel {
            var logger = Logger(label: "room-join", factory: { StreamLogHandler.standardError(label: $0) })
            logger.logLevel = logLevel
            configuration.logger = logger
        }
        return configuration
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
