// swift-tools-version:6.0
import PackageDescription

/// Every target: Swift 6 language mode (strict concurrency) plus the upcoming features the house style asks for.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "KurentoSignaling",
    products: [
        .library(name: "SignalingSupport", targets: ["SignalingSupport"]),
        .library(name: "WebSocketTransport", targets: ["WebSocketTransport"]),
        .library(name: "JSONRPC", targets: ["JSONRPC"]),
        .library(name: "JSONRPCWebSocket", targets: ["JSONRPCWebSocket"]),
        .library(name: "SDP", targets: ["SDP"]),
        .library(name: "PeerManager", targets: ["PeerManager"]),
        .library(name: "RoomProtocol", targets: ["RoomProtocol"]),
        .library(name: "KurentoClient", targets: ["KurentoClient"]),
        .library(name: "RoomServer", targets: ["RoomServer"]),
        // Its own product, so that embedders who export no Prometheus metrics never link swift-prometheus.
        .library(name: "RoomServerPrometheus", targets: ["RoomServerPrometheus"]),
        // What RoomServer needs of a cluster (ClusterBackplane), no C library; RoomCluster is the one on Redis, its own
        // product, so that embedders without a cluster never link hiredis.
        .library(name: "RoomClusterCore", targets: ["RoomClusterCore"]),
        .library(name: "RoomCluster", targets: ["RoomCluster"]),
        // Its own product, so that only embedders who run services under swift-service-lifecycle link it.
        .library(name: "RoomServerLifecycle", targets: ["RoomServerLifecycle"]),
        .library(name: "RoomClient", targets: ["RoomClient"]),
        .library(name: "TreeClient", targets: ["TreeClient"]),
        .library(name: "SharedObjects", targets: ["SharedObjects"]),
        .library(name: "SharedObjectServer", targets: ["SharedObjectServer"]),
        // Its own product, so that embedders who keep shared objects in memory never link SQLite.
        .library(name: "SharedObjectSQLite", targets: ["SharedObjectSQLite"]),
        // Its own product, so that only embedders who want JWT room access tokens link jwt-kit (and swift-crypto).
        .library(name: "RoomServerJWT", targets: ["RoomServerJWT"]),
        .executable(name: "sdp-tool", targets: ["sdp-tool"]),
        .executable(name: "room-join", targets: ["room-join"]),
        .executable(name: "room-server", targets: ["room-server"]),
        .executable(name: "tree-join", targets: ["tree-join"]),
        // A Kurento Media Server test double as a process (TestSupport.KurentoMediaServerDouble): `make bench` and
        // trying `room-server --kms` where no KMS can be installed.
        .executable(name: "kms-double", targets: ["kms-double"]),
        .executable(name: "jsonrpc-echo-server", targets: ["jsonrpc-echo-server"]),
        .executable(name: "room-chat", targets: ["room-chat"]),
        .executable(name: "room-custom-server", targets: ["room-custom-server"]),
        .executable(name: "room-publisher-receiver", targets: ["room-publisher-receiver"]),
        .executable(name: "shared-color-sync", targets: ["shared-color-sync"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Metrics: the libraries emit through swift-metrics (CoreMetrics); room-server and the tests choose the
        // Prometheus backend (docs/operations.md#metrics).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // JSON Web Tokens: RoomServerJWT only (room access tokens, `room-server --jwt-key`).
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // `make docs` only (swift package generate-documentation); no target depends on it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Module map + shim over Debian's libwebsockets-dev (4.1.6). Only WebSocketTransport imports it.
        .systemLibrary(
            name: "CLibWebSockets",
            pkgConfig: "libwebsockets",
            providers: [.apt(["libwebsockets-dev"])]
        ),
        // Module map over Debian's libsqlite3-dev. Only SharedObjectSQLite imports it.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // Module map over Debian's libhiredis-dev (0.14). Only RoomCluster imports it.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),
        .target(
            name: "SignalingSupport", dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "WebSocketTransport",
            dependencies: [
                "CLibWebSockets", "SignalingSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict,
            // OpenSSL's X509 verify codes are read directly to tell an untrusted chain from a wrong host name.
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]
        ),
        .target(
            name: "JSONRPC",
            dependencies: [
                "SignalingSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // The WebSocket adapter: JSON-RPC connections, transports and listeners over WebSocketTransport, SockJS
        // framing, the signaling clients' configuration. It re-exports the core and the transport.
        .target(
            name: "JSONRPCWebSocket",
            dependencies: [
                "JSONRPC", "WebSocketTransport", "SignalingSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "SDP", dependencies: [], swiftSettings: strict),
        .target(name: "PeerManager", dependencies: ["SDP"], swiftSettings: strict),
        // Kurento Room wire vocabulary shared by RoomClient and RoomServer; must agree with Schemas/.
        .target(name: "RoomProtocol", dependencies: ["JSONRPC"], swiftSettings: strict),
        // The Swift kurento-client: Kurento Media Server objects (pipelines, WebRTC endpoints) and events over JSONRPCClient.
        .target(
            name: "KurentoClient",
            dependencies: [
                "JSONRPC", "JSONRPCWebSocket", "SignalingSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // The embeddable room server: sessions, rooms, identity, limits, and the media backend protocol.
        .target(
            name: "RoomServer",
            dependencies: [
                "RoomProtocol", "JSONRPC", "PeerManager", "SDP", "JSONRPCWebSocket", "SignalingSupport",
                "SharedObjectServer", "SharedObjects", "RoomClusterCore", "KurentoClient",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        // RoomServer as a swift-service-lifecycle Service (graceful shutdown on SIGTERM in a ServiceGroup).
        .target(
            name: "RoomServerLifecycle",
            dependencies: ["RoomServer", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")],
            swiftSettings: strict
        ),
        // A room server's metrics in Prometheus form, served on its GET /metrics (what room-server uses).
        .target(
            name: "RoomServerPrometheus",
            dependencies: [
                "RoomServer", "JSONRPC", "KurentoClient",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        // Room access tokens (JWT, HS256) naming the user and the room, as LiveKit's do: an authorizer for RoomServer.
        .target(
            name: "RoomServerJWT",
            dependencies: ["RoomServer", "RoomProtocol", "JSONRPCWebSocket", .product(name: "JWTKit", package: "jwt-kit")],
            swiftSettings: strict
        ),
        // The cluster as RoomServer sees it: the ClusterBackplane protocol and its values, in pure Swift.
        .target(
            name: "RoomClusterCore", dependencies: [.product(name: "CoreMetrics", package: "swift-metrics")],
            swiftSettings: strict
        ),
        // Several room-server processes sharing rooms through Redis: the Redis client (hiredis) and the cluster state.
        .target(
            name: "RoomCluster",
            dependencies: ["CHiredis", "RoomClusterCore", "SignalingSupport", .product(name: "CoreMetrics", package: "swift-metrics")],
            swiftSettings: strict
        ),
        // Shared objects: the wire vocabulary and the client.
        .target(
            name: "SharedObjects",
            dependencies: ["JSONRPC", "SignalingSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // The server side of shared objects, installable on any JSONRPCServer; storage behind SharedObjectStore.
        .target(
            name: "SharedObjectServer",
            dependencies: ["SharedObjects", "JSONRPC", "SignalingSupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "SharedObjectSQLite", dependencies: ["SharedObjectServer", "JSONRPC", "CSQLite"],
            swiftSettings: strict
        ),
        // The NBMRoomClient counterpart: typed room calls, the peers model, multicast room events, and the media
        // negotiated through a PeerManager.
        .target(
            name: "RoomClient",
            dependencies: [
                "RoomProtocol", "JSONRPC", "SDP", "PeerManager", "SignalingSupport", "JSONRPCWebSocket",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The NBMTreeClient counterpart: typed Tree calls and multicast Tree events (source and sink candidates).
        .target(
            name: "TreeClient",
            dependencies: [
                "RoomProtocol", "JSONRPC", "SDP", "SignalingSupport", "JSONRPCWebSocket",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "sdp-tool",
            dependencies: [
                "SDP", "PeerManager", "SignalingSupport", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        // What the command-line tools share: report lines (readable or --json), stderr, connection options.
        .target(
            name: "CLISupport",
            dependencies: [
                "JSONRPC", "SignalingSupport", "JSONRPCWebSocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "room-join",
            dependencies: [
                "CLISupport", "RoomClient", "RoomProtocol", "JSONRPC", "SDP", "PeerManager", "JSONRPCWebSocket",
                "SharedObjects",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "tree-join",
            dependencies: [
                "CLISupport", "TreeClient", "RoomProtocol", "JSONRPC", "SDP", "PeerManager", "JSONRPCWebSocket",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "room-server",
            dependencies: [
                "RoomServer", "RoomServerPrometheus", "RoomCluster", "SignalingSupport", "SharedObjectServer",
                "SharedObjectSQLite", "CLISupport", "JSONRPC", "KurentoClient", "JSONRPCWebSocket", "RoomServerJWT",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "jsonrpc-echo-server",
            dependencies: [
                "JSONRPC", "SignalingSupport", "JSONRPCWebSocket", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/jsonrpc-echo-server",
            swiftSettings: strict
        ),
        // The examples parse their command lines with ArgumentParser and exit through CLISupport's
        // mainExitingTwoOnUsageErrors, as the tools do: `--help` on stdout, a usage error one line and exit 2.
        .executableTarget(
            name: "room-chat",
            dependencies: [
                "RoomClient", "RoomProtocol", "JSONRPC", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/room-chat", swiftSettings: strict
        ),
        .executableTarget(
            name: "room-custom-server",
            dependencies: [
                "RoomServer", "JSONRPC", "SignalingSupport", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/room-custom-server", swiftSettings: strict
        ),
        .executableTarget(
            name: "room-publisher-receiver",
            dependencies: [
                "RoomClient", "RoomServer", "RoomProtocol", "PeerManager", "SDP", "JSONRPC", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/room-publisher-receiver", swiftSettings: strict
        ),
        .executableTarget(
            name: "shared-color-sync",
            dependencies: [
                "SharedObjects", "RoomServer", "JSONRPCWebSocket", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/shared-color-sync", swiftSettings: strict
        ),
        // Test-only helpers: TLS certificates, raw TCP peers, schema validation, waiting with deadlines, the
        // Kurento Media Server double (raw TCP and JSONSerialization; its SDP answers from PeerManager), and the Swift
        // sides of the aiortc and headless-Chromium witnesses (their scripts are in Tests/Witness).
        .target(
            name: "TestSupport", dependencies: ["SignalingSupport", "JSONRPC", "PeerManager", "SDP"], swiftSettings: strict
        ),
        // The room tests' user (a RoomClient and every event it received), for the suites that run rooms over a server:
        // a target of its own, so that TestSupport (linked by the kms-double executable) links no room client.
        .target(name: "RoomTestSupport", dependencies: ["TestSupport", "RoomClient"], swiftSettings: strict),
        .executableTarget(
            name: "kms-double",
            dependencies: ["TestSupport", "SignalingSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        // The Kurento Media Server double against the protocol itself: raw JSON over a WebSocket, no KurentoClient.
        .testTarget(
            name: "KurentoMediaServerDoubleTests",
            dependencies: ["TestSupport", "SignalingSupport", "PeerManager", "SDP", "WebSocketTransport"],
            swiftSettings: strict
        ),
        // KurentoClient against the double: objects, events, errors, reconnection.
        .testTarget(
            name: "KurentoClientTests",
            dependencies: ["KurentoClient", "JSONRPC", "SignalingSupport", "TestSupport", "PeerManager", "SDP"],
            swiftSettings: strict
        ),
        .testTarget(name: "SignalingSupportTests", dependencies: ["SignalingSupport", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ClusterTests",
            dependencies: ["RoomServer", "RoomClient", "RoomCluster", "RoomProtocol", "JSONRPC", "PeerManager", "SDP",
                           "SharedObjects", "SharedObjectServer", "SignalingSupport", "TestSupport", "RoomTestSupport", "KurentoClient"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RoomClusterTests", dependencies: ["RoomCluster", "RoomClusterCore", "SignalingSupport", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WebSocketTransportTests",
            dependencies: [
                "WebSocketTransport", "SignalingSupport", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "JSONRPCTests",
            dependencies: [
                "JSONRPC", "JSONRPCWebSocket", "SignalingSupport", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SDPTests", dependencies: ["SDP", "TestSupport"],
            exclude: ["Fixtures"],  // SDP text read in place through TestSupport's SDPFiles
            swiftSettings: strict
        ),
        .testTarget(
            name: "PeerManagerTests", dependencies: ["PeerManager", "SDP", "SignalingSupport", "TestSupport"],
            // Its witnesses (aiortc, headless Chromium) are Python scripts in Tests/Witness, which belongs to no target.
            swiftSettings: strict
        ),
        .testTarget(
            name: "RoomProtocolTests",
            dependencies: ["RoomProtocol", "JSONRPC", "TestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RoomServerTests",
            dependencies: [
                "RoomServer", "RoomProtocol", "JSONRPC", "PeerManager", "SDP", "JSONRPCWebSocket", "SignalingSupport",
                "TestSupport", "RoomClient", "RoomCluster", "RoomClusterCore", "RoomServerLifecycle",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            // the dashboard's headless-browser witness (Python, Chrome DevTools protocol through the shared driver,
            // Tests/Witness/chromium_cdp.py, which belongs to no target)
            exclude: ["Witness"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "RoomClientTests",
            dependencies: [
                "RoomClient", "RoomProtocol", "JSONRPC", "SDP", "SignalingSupport", "JSONRPCWebSocket", "TestSupport",
                "RoomServer",  // room-join's interactive mode against an in-process server
                "CLISupport", .product(name: "ArgumentParser", package: "swift-argument-parser"),  // the CLIs' options
            ],
            swiftSettings: strict
        ),
        // The built room-server and room-join binaries, run as processes.
        .testTarget(
            name: "RoomServerCLITests",
            dependencies: [
                "RoomClient", "RoomProtocol", "JSONRPC", "JSONRPCWebSocket", "TestSupport",
                "RoomServerJWT",  // tokens for `room-server --jwt-key`
            ],
            swiftSettings: strict
        ),
        // Room access tokens against an in-process RoomServer over real sockets.
        .testTarget(
            name: "RoomServerJWTTests",
            dependencies: ["RoomServerJWT", "RoomServer", "RoomClient", "RoomProtocol", "JSONRPC", "JSONRPCWebSocket", "TestSupport"],
            swiftSettings: strict
        ),
        // TreeClients against an in-process RoomServer on /tree over real sockets, media negotiated with PeerManager.
        .testTarget(
            name: "TreeTests",
            dependencies: [
                "TreeClient", "RoomServer", "RoomProtocol", "PeerManager", "SDP", "JSONRPC", "JSONRPCWebSocket",
                "SignalingSupport", "TestSupport",
            ],
            swiftSettings: strict
        ),
        // Shared objects end to end: clients over real sockets, the service on a JSONRPCServer and in RoomServer.
        .testTarget(
            name: "SharedObjectTests",
            dependencies: [
                "SharedObjects", "SharedObjectServer", "SharedObjectSQLite", "RoomServer", "RoomClient", "JSONRPC",
                "JSONRPCWebSocket", "SignalingSupport", "TestSupport",
            ],
            swiftSettings: strict
        ),
        // Heartbeat, reconnect, resume and rejoin: unit tests on a ManualClock, and fault injection through
        // TestSupport's FaultProxy with scaled-down timings.
        .testTarget(
            name: "ResilienceTests",
            dependencies: [
                "JSONRPC", "RoomClient", "RoomServer", "RoomProtocol", "PeerManager", "SDP", "SignalingSupport",
                "JSONRPCWebSocket", "TestSupport",
            ],
            swiftSettings: strict
        ),
        // Descriptors, streams and continuations after many reconnect cycles; `make leaks` runs it in its own
        // process, and `make test` skips it (docs/testing.md#leaks: leak runs are their own target).
        .testTarget(
            name: "LeakTests",
            dependencies: ["JSONRPC", "SignalingSupport", "JSONRPCWebSocket", "TestSupport"],
            swiftSettings: strict
        ),
        // The metrics (docs/operations.md#metrics): an in-process RoomServer with a Prometheus registry of its own
        // (RoomServerPrometheus's exporter), scraped after scripted sessions; with Kurento Media Server (the double),
        // KurentoClient's too.
        .testTarget(
            name: "MetricsTests",
            dependencies: [
                "RoomServer", "RoomClient", "RoomCluster", "JSONRPC", "PeerManager", "SDP",
                "SignalingSupport", "TestSupport", "RoomTestSupport", "KurentoClient", "RoomServerPrometheus",
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        // RoomClients against an in-process RoomServer over real sockets, media negotiated with PeerManager, from the
        // simulated backend or through KurentoMediaBackend from the Kurento Media Server double.
        .testTarget(
            name: "RoomEndToEndTests",
            dependencies: [
                "RoomClient", "RoomServer", "PeerManager", "SDP", "JSONRPC", "RoomProtocol", "SignalingSupport",
                "TestSupport", "RoomTestSupport", "KurentoClient",
            ],
            swiftSettings: strict
        ),
    ]
)
