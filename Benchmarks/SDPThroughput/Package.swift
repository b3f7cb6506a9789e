// swift-tools-version:6.0
import Foundation
import PackageDescription

// Parse + serialize throughput of the SDP module on a ~5 KB browser offer.
//   cd Benchmarks/SDPThroughput && swift run -c release --scratch-path .build-release SDPThroughput
// A path dependency's identity is its folder name, which depends on the checkout.
let root = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "SDPThroughput",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "SDPThroughput", dependencies: [.product(name: "SDP", package: root)],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("MemberImportVisibility")])
    ]
)
