// swift-tools-version:6.0
import Foundation
import PackageDescription

// The benchmark harness: `make bench` builds this package in release and runs Benchmarks/run.py.
// Its own package (docs/architecture.md#modules), so the root manifest stays light; it depends on the root by path.
// A path dependency's identity is its folder name, which depends on the checkout.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

/// The house settings of the root manifest: Swift 6 mode plus the upcoming features the style asks for.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Benchmarks",
    dependencies: [
        .package(path: ".."),
        // SwiftNIO, for the NIO JSON-RPC server and client that `make bench` compares us with (never a
        // dependency of the library itself). 2.101.3 is the version that resolves offline here.
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        // `KBENCH_METRICS=prometheus`: the servers' metrics on, into a Prometheus registry, as room-server has them.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // Counts malloc-family calls of this process (the executable's definitions interpose glibc's).
        .target(name: "CMallocCounter"),
        // SDP parse and serialize throughput and allocations per parse.
        .executableTarget(
            name: "SDPThroughput",
            dependencies: [
                "CMallocCounter",
                .product(name: "SDP", package: root),
                .product(name: "PeerManager", package: root),
                .product(name: "SignalingSupport", package: root),
            ],
            swiftSettings: strict
        ),
        // Echo servers and clients over our transport and JSON-RPC, the room server and its load generator, and the
        // SwiftNIO JSON-RPC baseline (NIO*.swift).
        .executableTarget(
            name: "kbench",
            dependencies: [
                .product(name: "WebSocketTransport", package: root),
                .product(name: "JSONRPC", package: root),
                .product(name: "JSONRPCWebSocket", package: root),
                .product(name: "RoomServer", package: root),
                .product(name: "RoomCluster", package: root),
                .product(name: "RoomClient", package: root),
                .product(name: "PeerManager", package: root),
                .product(name: "SDP", package: root),
                .product(name: "SignalingSupport", package: root),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
    ]
)
