public import ArgumentParser
public import JSONRPC
public import JSONRPCWebSocket
public import Logging

/// How a command-line tool connects: the request timeout and retries, the bearer token, TLS trust and logging.
/// Each tool turns these into its client's configuration.
public struct ConnectionOptions: ParsableArguments, Sendable {
    @Option(help: "Seconds to wait for the WebSocket handshake, and for each response (the first attempt; each retry doubles it). Default 5, or 15 with --stock-kurento.")
    public var timeout: Double?

    @Option(help: "Re-sends of a request after a timeout. Default 1, or 0 with --stock-kurento.")
    public var retries: Int?

    @Flag(help: "Talk safely to a stock Kurento server, which neither dedupes request ids nor replays what a resumed session missed: 15 s per request, no retries, nothing re-sent after a resume (room-join also reads the room again after one). Servers of this package say what they do, and a resume against them stays as it is.")
    public var stockKurento = false

    @Option(help: "Seconds to keep reconnecting after the connection drops, resuming the session (room-join also rejoins the room and renegotiates its media when the server lost the session); 0 exits at the first drop.")
    public var reconnectFor: Double = 60

    @Option(help: "A bearer token, sent as 'Authorization: Bearer TOKEN' on the WebSocket upgrade.")
    public var token: String?

    @Option(help: "A PEM file of CA certificates to trust for wss:// instead of the system store.")
    public var caFile: String?

    @Flag(help: "For wss://: accept a self-signed certificate and skip the host name check (a certificate from an unknown CA still needs --ca-file).")
    public var insecure = false

    @Option(help: "The least severe level logged to stderr (default: nothing is logged).")
    public var logLevel: Logger.Level?

    public init() {}

    public func validate() throws {
        if let timeout, !(timeout > 0 && timeout.isFinite) { throw ValidationError("--timeout must be a positive number") }
        if let retries, retries < 0 { throw ValidationError("--retries must not be negative") }
        guard reconnectFor >= 0, reconnectFor.isFinite else {
            throw ValidationError("--reconnect-for must be a number of seconds, 0 or more")
        }
    }

    /// `--timeout` as a duration (its default depends on `--stock-kurento`).
    public var requestTimeout: Duration {
        timeout.map { .milliseconds(Int($0 * 1000)) } ?? base.requestTimeout
    }

    /// The settings the options start from: the defaults, or the stock Kurento profile.
    var base: SignalingClientConfiguration { stockKurento ? .stockKurento : SignalingClientConfiguration() }

    /// The reconnect policy `--reconnect-for` makes: automatic within that total budget, or off for 0.
    public var reconnectPolicy: JSONRPCClient.ReconnectPolicy {
        reconnectFor == 0 ? .off : .automatic(.init(budget: .milliseconds(Int((reconnectFor * 1000).rounded()))))
    }

    /// Applies `--ca-file` and `--insecure` to `options`, and bounds their handshake timeout by `--timeout`: a
    /// listener that never completes the handshake must not hold the run longer than that.
    public func apply(to options: inout WebSocketClientConfiguration) {
        options.tls = tls
        options.handshakeTimeout = min(options.handshakeTimeout, requestTimeout)
    }

    /// The WebSocket options `--ca-file` and `--insecure` make.
    public var tls: TLSClientConfiguration {
        TLSClientConfiguration(caFile: caFile, allowSelfSigned: insecure, skipHostnameCheck: insecure)
    }

    /// The client settings these options make (timeout, retries, token, reconnect policy, TLS trust, logging to
    /// stderr labelled `tool`), for a `RoomClient` or a `TreeClient`.
    public func clientConfiguration(tool: String) -> SignalingClientConfiguration {
        var configuration = base
        configuration.requestTimeout = requestTimeout
        configuration.retries = retries ?? base.retries
        configuration.authToken = token
        configuration.reconnect = reconnectPolicy
        apply(to: &configuration.webSocket)
        if let logger = logger(tool) { configuration.logger = logger }
        return configuration
    }

    /// A logger to stderr at `--log-level`, labelled `tool`; `nil` without `--log-level`.
    public func logger(_ tool: String) -> Logger? {
        guard let logLevel else { return nil }
        var logger = Logger(label: tool, factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
