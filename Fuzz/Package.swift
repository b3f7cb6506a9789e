// swift-tools-version:6.0
import Foundation
import PackageDescription

// libFuzzer targets for the SDP parsers, our WebSocket inbound reassembly, the JSON-RPC envelope and Room params;
// its own package so the root manifest stays light (docs/testing.md#fuzzing).
// A fuzz executable has no main() of its own, so the targets exist only when FUZZ is set (docs/testing.md#fuzzing):
//   FUZZ=1 swift build -c release --sanitize=fuzzer --sanitize=address --scratch-path .build-fuzz
// `make fuzz` in the root does this and runs each target for a bounded time.

// A path dependency's identity is its folder name, which depends on the checkout.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "KurentoSignalingFuzz",
    dependencies: [.package(path: "..")],
    targets: []
)

if Context.environment["FUZZ"] != nil {
    // Each target and the root products it fuzzes.
    let targets: [(String, [String])] = [
        ("FuzzSDP", ["SDP"]), ("FuzzCandidate", ["SDP"]),
        ("FuzzInbound", ["WebSocketTransport"]),  // our fragment reassembly (framing itself is inside lws)
        ("FuzzEnvelope", ["JSONRPC"]),  // JSONParser + RPCCodec: decode, classify, round trip
        ("FuzzRoomParams", ["RoomProtocol", "JSONRPC"]),  // every method's params, results and notifications
    ]
    for (name, products) in targets {
        package.targets.append(
            .executableTarget(
                name: name,
                dependencies: products.map { .product(name: $0, package: root) },
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]
            ))
    }
}
