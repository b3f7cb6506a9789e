// swift-tools-version:6.0
import Foundation
import PackageDescription

// libFuzzer targets for the SDP module (DESIGN §1: its own package so the root manifest stays light).
// A fuzz executable has no main() of its own, so the targets exist only when FUZZ is set (LWS-NOTES §6):
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
    for name in ["FuzzSDP", "FuzzCandidate"] {
        package.targets.append(
            .executableTarget(
                name: name,
                dependencies: [.product(name: "SDP", package: root)],
                swiftSettings: [.unsafeFlags(["-parse-as-library"])]
            ))
    }
}
