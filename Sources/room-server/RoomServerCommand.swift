import ArgumentParser
import CLISupport
import Foundation
import JSONRPC
import JSONRPCWebSocket
import KurentoClient
import Logging
import RoomCluster
import RoomServer
import RoomServerJWT
import RoomServerPrometheus
import SharedObjectSQLite
import SharedObjectServer
import SignalingSupport

/// `room-server [--port N] …`: the embeddable ``RoomServer`` as a process. The first stdout line
/// is the URL to dial; SIGINT or SIGTERM closes every session with 1001 and exits 0.
@main
struct RoomServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "room-server",
        abstract: "A Kurento Room and Tree signaling server over WebSocket, with media from Kurento Media Server (--kms) or simulated.",
        discussion: """
            The first line on stdout is the Room URL a local client dials, e.g. ws://127.0.0.1:41234/room (Room is \
            served on /room and on /), the last one the Tree URL, e.g. ws://127.0.0.1:41234/tree; with \
            --metrics-port its URL is between them, on the second line. A --host name is resolved and its first \
            address bound (IPv4 first); the URLs keep the name and name the port really bound. Logs go to stderr; \
            session ids appear only redacted. \
            SIGINT or SIGTERM closes every session with 1001 ("going away") and exits. SIGHUP reads --tls-cert and \
            --tls-key again: new connections get the renewed certificate, open ones keep theirs, and files that do \
            not go together (or do not parse) leave the old certificate in place, with the reason on stderr. TLS \
            is 1.2 or 1.3, and TLS 1.2 only with ECDHE and AES-GCM or ChaCha20-Poly1305 (forward secrecy).

            Shared objects: clients may not create persistent ones unless --allow-persistent-shared-objects is given; \
            all sessions together may keep --max-shared-objects objects (10000) holding --max-shared-object-bytes \
            bytes (64 MiB), past which a connect gets 1103 and a change 1104.

            Cluster: the Redis URL comes from --cluster or the ROOM_SERVER_CLUSTER_URL environment variable, and \
            its password, which ps would show on the command line, better from --cluster-password-file FILE or the \
            ROOM_SERVER_CLUSTER_PASSWORD environment variable. Whoever can write to that Redis can act as any node: \
            keep it on a private network, behind its password.

            Operating it (docs/operations.md): plain HTTP on the same port answers GET /healthz (200 while the \
            process serves) and GET /readyz (200 "ready", or 503 with a one-line reason: shutting down, or with \
            --cluster Redis unreachable, or with --kms no Kurento Media Server reachable). With an admin token (--admin-token, or better the ROOM_SERVER_ADMIN_TOKEN \
            environment variable, which ps does not show) it also serves GET /rooms (JSON, with \
            "Authorization: Bearer TOKEN"), the live page GET /dashboard (a login form, then a session cookie) and \
            its WebSocket subscription /admin (the cookie, or "Authorization: Bearer TOKEN"); never ?token= in a \
            URL; without a token those answer 404. --metrics-port N serves /healthz, \
            /readyz and /metrics (never the admin routes) on a second port, whose URL is then the second stdout line.

            Examples:
              room-server --port 0
              room-server --port 8443 --tls-cert cert.pem --tls-key key.pem --max-rooms 10
              room-server --max-participants-per-room 4 --reconnection-window 2
              room-server --host 0.0.0.0 --port 8888 --log-level debug
              room-server --shared-objects objects.sqlite --allow-persistent-shared-objects
              room-server --port 8888 --kms ws://127.0.0.1:8888/kurento
              room-server --kms ws://kms-1:8888/kurento --kms ws://kms-2:8888/kurento --kms-timeout 15
              room-server --port 8888 --cluster redis://10.0.0.5:6379/0 --cluster-password-file /run/secrets/redis --node-id east-1
              ROOM_SERVER_ADMIN_TOKEN=$(openssl rand -hex 16) room-server --metrics-port 9100
              room-server --port 8443 --tls-cert cert.pem --tls-key key.pem --jwt-key room-jwt.key

            Exit codes: 0 shut down by SIGINT or SIGTERM; 1 cannot listen (a --host that does not resolve or is \
            not of this machine, a port in use, a TLS file unreadable or unusable: the reason on stderr), \
            cannot open the --shared-objects file, cannot read the --cluster-password-file, or cannot reach the \
            --cluster Redis, or cannot use the --jwt-key file; 2 usage error (as room-join \
            and tree-join).
            """
    )

    @Option(help: ArgumentHelp("The address to bind, or a name resolved to one (its first address, IPv4 first).",
                               valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (read the URL from stdout).")
    var port = 0

    @Option(name: .customLong("tls-cert"),
            help: ArgumentHelp("Certificate file (PEM, the chain after the certificate) for wss; needs --tls-key. "
                               + "Read again on SIGHUP.", valueName: "file"))
    var tlsCertificate: String?

    @Option(name: .customLong("tls-key"),
            help: ArgumentHelp("Private key file (PEM, unencrypted) for wss; needs --tls-cert. Read again on SIGHUP.",
                               valueName: "file"))
    var tlsKey: String?

    @OptionGroup(title: "Limits")
    var limits: LimitOptions

    @Flag(help: ArgumentHelp("Let clients name their trees (createTree with a treeId, as stock KurentoTree.js and "
                             + "tree-join --tree do), first come, first served. Without it such a createTree gets Tree "
                             + "error 2, and every tree has an id the server chose."))
    var allowClientTreeIds = false

    @Option(help: ArgumentHelp("Seconds a participant whose socket dropped keeps its place, waiting to reconnect.",
                               valueName: "seconds"))
    var reconnectionWindow: Double = 10

    @Option(name: .customLong("shared-objects"),
            help: ArgumentHelp("Keep persistent shared objects in this SQLite file (created if missing, readable by "
                               + "its owner only), so they survive a restart. Without it they live in memory.",
                               valueName: "path"))
    var sharedObjectsPath: String?

    @OptionGroup(title: "Shared objects")
    var sharedObjectOptions: SharedObjectOptions

    @Option(help: ArgumentHelp("Serve rooms together with other room-server processes through this Redis "
                               + "(redis://[[USER]:PASSWORD@]HOST[:PORT][/DB], port 6379 by default; the password is the cluster's secret, "
                               + "better given by --cluster-password-file or \(Self.clusterPasswordVariable), which ps "
                               + "does not show; default: the \(Self.clusterURLVariable) environment variable).",
                               valueName: "url"))
    var cluster: String?

    @Option(name: .customLong("cluster-password-file"),
            help: ArgumentHelp("Read the --cluster Redis password from the first line of this file (instead of the "
                               + "URL, where ps shows it).", valueName: "file"))
    var clusterPasswordFile: String?

    @Option(name: .customLong("kms"),
            help: ArgumentHelp("Get the media from this Kurento Media Server (ws[s]://HOST:8888/kurento) instead of "
                               + "simulating it; repeat for several (each new room or tree goes to the one with the "
                               + "fewest live pipelines).", valueName: "url"))
    var kmsURLs: [String] = []

    @Option(name: .customLong("kms-timeout"),
            help: ArgumentHelp("With --kms: seconds one media operation (a publish, a subscription) may take at "
                               + "Kurento Media Server before it fails with 303.", valueName: "seconds"))
    var kmsTimeout: Double = 10

    @Option(help: ArgumentHelp("This node's name in the cluster (default: host name and process id).",
                               valueName: "name"))
    var nodeID: String?

    @Option(help: ArgumentHelp("With --cluster: seconds without a heartbeat after which the other nodes take this "
                               + "node for dead and remove its participants (it renews every fifth of that).",
                               valueName: "seconds"))
    var nodeTimeout: Double = 5

    @Option(name: .customLong("jwt-key"),
            help: ArgumentHelp("Require a room access token on every Room and Tree connection: a JWT signed with "
                               + "HS256 and the key in this file (at least 32 bytes: openssl rand -hex 32), whose "
                               + "claims name the user (sub) and the room (video.room, with video.roomJoin true) it "
                               + "may join, between nbf and exp. Clients send it as Authorization: Bearer (room-join "
                               + "--token) or ?access_token=. None, invalid or expired: HTTP 401; no roomJoin: HTTP "
                               + "403; a joinRoom as another user or into another room: Room error 401.", valueName: "file"))
    var jwtKeyFile: String?

    @Option(help: ArgumentHelp("The admin token that turns on GET /rooms, /dashboard and the /admin subscription "
                               + "(default: the \(Self.adminTokenVariable) environment variable, which ps does not "
                               + "show; without either they are off). At least 16 bytes. Programs send it as "
                               + "Authorization: Bearer, browsers log in at /dashboard (a 15-minute HttpOnly, "
                               + "SameSite=Strict session cookie); never in a URL. After 5 wrong tokens from one "
                               + "address, each further one locks it out for 1 s, doubling up to 5 minutes.",
                               valueName: "token"))
    var adminToken: String?

    @Option(help: ArgumentHelp("Also serve /healthz, /readyz and /metrics, never the admin routes, over plain HTTP on "
                               + "this port (0 picks a free one; its URL is the second stdout line).",
                               valueName: "port"))
    var metricsPort: Int?

    @Option(help: ArgumentHelp("The address --metrics-port binds (default: --host).", valueName: "address"))
    var metricsHost: String?

    @Option(help: "The least severe level logged to stderr.")
    var logLevel: Logger.Level = .info

    /// The environment variable the admin token is read from when `--admin-token` is not given.
    static let adminTokenVariable = "ROOM_SERVER_ADMIN_TOKEN"

    /// Parses and runs, with usage errors exiting 2 (not ArgumentParser's 64) as the exit codes promise.
    static func main() async { await mainExitingTwoOnUsageErrors() }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        guard reconnectionWindow >= 0, reconnectionWindow.isFinite else {
            throw ValidationError("--reconnection-window must be a number of seconds, 0 or more")
        }
        try validateCluster()
        guard nodeTimeout > 0, nodeTimeout.isFinite else { throw ValidationError("--node-timeout must be positive") }
        if adminToken?.isEmpty == true { throw ValidationError("--admin-token must not be empty") }
        if let token = configuredAdminToken, token.utf8.count < OperationsConfiguration.minimumAdminTokenLength {
            let source = adminToken == nil ? Self.adminTokenVariable : "--admin-token"
            throw ValidationError("\(source): the admin token must have at least "
                                  + "\(OperationsConfiguration.minimumAdminTokenLength) bytes (openssl rand -hex 16)")
        }
        if let metricsPort, !(0...65535).contains(metricsPort) {
            throw ValidationError("--metrics-port must be in 0...65535")
        }
        if metricsHost != nil, metricsPort == nil { throw ValidationError("--metrics-host goes with --metrics-port") }
        for url in kmsURLs {
            let parts = URLComponents(string: url)
            guard ["ws", "wss"].contains(parts?.scheme?.lowercased()), parts?.host?.isEmpty == false else {
                throw ValidationError("--kms \(url): a Kurento Media Server URL is ws://HOST:PORT/kurento or wss://…")
            }
        }
        guard kmsTimeout > 0, kmsTimeout.isFinite else { throw ValidationError("--kms-timeout must be positive") }
    }

    func run() async throws {
        // Installed before listening, so no signal is missed; the sources live until `run` returns.
        let (stop, sources) = ProcessSignals.stream([SIGINT, SIGTERM], label: "room-server.signals")
        let (reload, reloadSources) = ProcessSignals.stream([SIGHUP], label: "room-server.reload")
        defer { (sources + reloadSources).forEach { $0.cancel() } }
        // Before the server exists, so that every instrument it makes lands in the exporter's registry.
        PrometheusExporter.shared.bootstrap()
        // Every line logged while a connection or a request is served carries its trace_id and span_id; whatever a
        // client sent reaches a line escaped, so it can never start a line of its own (docs/operations.md#tracing).
        var configuredLogger = Logger(label: "room-server", factory: {
            EscapingLogHandler(wrapping: StreamLogHandler.standardError(label: $0, metadataProvider: .traceParent))
        })
        configuredLogger.logLevel = logLevel
        // A constant: the SIGHUP task below reads it while this task goes on logging.
        let logger = configuredLogger
        var store: (any SharedObjectStore)?
        if let sharedObjectsPath {
            do {
                store = try SQLiteSharedObjectStore(path: sharedObjectsPath)
            } catch {
                FileHandle.standardError.write(Data("room-server: --shared-objects: \(error)\n".utf8))
                throw ExitCode.failure
            }
            warnIfOthersCanRead(sharedObjectsPath, logger: logger)
        }
        let redis: RedisURL?
        do {
            redis = try clusterRedisURL()
        } catch {
            FileHandle.standardError.write(Data("room-server: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if passwordOnCommandLine {
            logger.warning("""
                the --cluster URL holds the Redis password, which ps shows to every user: use --cluster-password-file \
                or \(Self.clusterPasswordVariable)
                """)
        }
        var configuration = serverConfiguration(logger: logger, sharedObjectStore: store, redis: redis)
        if let jwtKeyFile {
            do {
                try await RoomTokenAuthorizer(keyFile: jwtKeyFile).install(on: &configuration)
            } catch {
                FileHandle.standardError.write(Data("room-server: --jwt-key: \(error)\n".utf8))
                throw ExitCode.failure
            }
        }
        let server: RoomServer
        do {
            server = try await RoomServer.start(configuration)
        } catch let error as RedisError {
            FileHandle.standardError.write(Data("room-server: --cluster: \(error)\n".utf8))
            throw ExitCode.failure
        } catch TransportError.listenFailed(let reason) {
            // The reason in the system's words: "address already in use", "cannot resolve NAME: …", the TLS file
            // that cannot be read and why.
            FileHandle.standardError.write(Data("room-server: cannot listen on \(host):\(port): \(reason)\n".utf8))
            throw ExitCode.failure
        } catch {
            FileHandle.standardError.write(Data("room-server: cannot listen on \(host):\(port): \(error)\n".utf8))
            throw ExitCode.failure
        }
        // Written straight to the file descriptor: unbuffered, so a reader sees each line at once. Line 1 is the Room
        // URL, then the --metrics-port URL (line 2 when given), then the Tree URL.
        FileHandle.standardOutput.write(Data((server.url + "\n").utf8))
        if metricsPort != nil { FileHandle.standardOutput.write(Data((server.operationsURL + "\n").utf8)) }
        FileHandle.standardOutput.write(Data((server.treeURL + "\n").utf8))
        let reloading = Task { await reloadCertificate(of: server, on: reload, logger: logger) }
        defer { reloading.cancel() }
        for await signal in stop {
            logger.info("shutting down", metadata: ["signal": "\(signal)"])
            break
        }
        await server.shutdown()
    }

    /// SIGHUP: reads `--tls-cert` and `--tls-key` again (docs/operations.md#tls), one signal after the other, until
    /// the task is cancelled. A refused pair leaves the certificate served as it was.
    func reloadCertificate(of server: RoomServer, on signals: AsyncStream<Int32>, logger: Logger) async {
        for await _ in signals {
            guard let tlsCertificate else {
                logger.notice("SIGHUP: no TLS certificate to reload (no --tls-cert)")
                continue
            }
            do {
                try await server.reloadTLSCertificate()
                logger.notice("SIGHUP: TLS certificate reloaded", metadata: ["file": "\(tlsCertificate)"])
            } catch {
                // "TLS failure: certificate not reloaded: <why>"; the one served before stays.
                logger.error("SIGHUP: \(error)", metadata: ["file": "\(tlsCertificate)"])
            }
        }
    }

    /// The library configuration these options describe (`redis`: the cluster's Redis, its password resolved).
    func serverConfiguration(logger: Logger, sharedObjectStore: (any SharedObjectStore)? = nil, redis: RedisURL? = nil)
        -> RoomServer.Configuration
    {
        RoomServer.Configuration(
            host: host, port: port,
            tls: tlsCertificate.flatMap { cert in tlsKey.map { (certificateFile: cert, privateKeyFile: $0) } },
            media: media(logger: logger),
            limits: limits.roomServerLimits,
            reconnectionWindow: .milliseconds(Int((reconnectionWindow * 1000).rounded())),
            maxMessageSize: limits.maxMessageSize,
            authorizeTreeId: allowClientTreeIds ? { @Sendable _ in true } : nil,
            sharedObjects: sharedObjectOptions.configuration(
                store: sharedObjectStore ?? InMemorySharedObjectStore(),
                limits: SharedObjectLimits(maxMessageBytes: limits.maxChatMessageBytes,
                                           maxBroadcastBytesPerSecond: limits.roomServerLimits.maxBroadcastBytesPerSecond),
                logger: logger),
            cluster: clusterConfiguration(redis: redis),
            operations: operationsConfiguration,
            logger: logger,
            metrics: PrometheusExporter.shared.metrics)
    }

    /// Warns when the `--shared-objects` file (made 0600 when new) is readable or writable by others than its owner:
    /// an existing file keeps the mode it was given.
    func warnIfOthersCanRead(_ path: String, logger: Logger) {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
              mode & 0o077 != 0 else { return }
        logger.warning("the --shared-objects file is open to others than its owner: chmod 600 it",
                       metadata: ["path": "\(path)", "mode": "\(String(mode, radix: 8))"])
    }

    /// `--kms` and `--kms-timeout`: Kurento Media Server, or the simulated media without them.
    func media(logger: Logger) -> any MediaBackend {
        guard !kmsURLs.isEmpty else { return SimulatedMediaBackend() }
        return KurentoMediaBackend(configuration: .init(
            urls: kmsURLs, timeout: .milliseconds(Int((kmsTimeout * 1000).rounded())),
            client: .init(logger: logger, metrics: PrometheusExporter.shared.metrics)))
    }

    /// The admin token (`--admin-token`, else the environment), `--metrics-port` and the metrics exposition.
    var operationsConfiguration: OperationsConfiguration {
        OperationsConfiguration(
            adminToken: configuredAdminToken,
            // GET /metrics: every metric of the process, from the registry the libraries report to
            // (docs/operations.md#metrics).
            metricsExposition: PrometheusExporter.shared.metricsExposition,
            listener: metricsPort.map { (host: metricsHost ?? host, port: $0) })
    }

    /// `--admin-token`, else the environment variable (when not empty).
    var configuredAdminToken: String? {
        adminToken ?? ProcessInfo.processInfo.environment[Self.adminTokenVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `--cluster` (its URL resolved to `redis`) and `--node-id`.
    func clusterConfiguration(redis: RedisURL?) -> ClusterConfiguration? {
        guard let url = redis else { return nil }
        let node = nodeID ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
        let timeout = Duration.milliseconds(Int((nodeTimeout * 1000).rounded()))
        return ClusterConfiguration(redis: url, nodeID: node, heartbeatInterval: timeout / 5, nodeTimeout: timeout)
    }
}
