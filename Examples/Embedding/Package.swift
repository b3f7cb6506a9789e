// swift-tools-version:6.0
import PackageDescription

// A package of one's own that embeds KurentoSignaling, as README "Using the package" shows: a signaling server,
// a room bot and a JSON-RPC tool, written from the README and the docs with the library's public products only.
// `make examples` builds it (and `make test` runs the three together with room-join: EmbeddingExampleTests).
//
// The dependency is named: a path dependency's identity is its directory's name, which is whatever the repository
// was cloned as; `name:` makes `package: "KurentoSignaling"` below hold wherever it is. With a URL dependency the
// identity is the URL's last component: `.package(url: "https://…/KurentoSignaling.git", branch: "main")`.
let package = Package(
    name: "Embedding",
    dependencies: [
        .package(name: "KurentoSignaling", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // What the server and its clients agree on: the custom request, its answer and the notification it sends.
        .target(name: "DemoProtocol"),
        .executableTarget(
            name: "signaling-server",
            dependencies: [
                "DemoProtocol",
                .product(name: "RoomServer", package: "KurentoSignaling"),
                .product(name: "RoomServerPrometheus", package: "KurentoSignaling"),
                .product(name: "RoomServerLifecycle", package: "KurentoSignaling"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "room-bot",
            dependencies: [
                "DemoProtocol",
                .product(name: "RoomClient", package: "KurentoSignaling"),
                .product(name: "PeerManager", package: "KurentoSignaling"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "rpc-tool",
            dependencies: [
                "DemoProtocol",
                .product(name: "JSONRPCWebSocket", package: "KurentoSignaling"),
            ]
        ),
    ]
)
