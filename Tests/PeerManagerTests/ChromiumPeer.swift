import Foundation
import Testing
import TestSupport

/// One RTCPeerConnection in headless Chromium, as an independent witness of our descriptions
/// (docs/testing.md#witnesses): `Witness/chromium_peer.py` starts the browser through the shared DevTools driver
/// (`Tests/Witness/chromium_cdp.py`) and runs the page's steps; each step answers with the browser's exact error text
/// when the browser refuses, and with the connection as the page sees it.
final class ChromiumPeer: Sendable {
    /// Why the witness cannot run here; `nil` when chromium and python3's `websockets` are there.
    static let missing: String? = Chromium.executable == nil
        ? "chromium is not installed (make deps installs Debian's chromium)" : Python.missing("websockets")

    static let script = SDPFiles.packageRoot.appendingPathComponent("Tests/PeerManagerTests/Witness/chromium_peer.py")

    /// A transceiver of the page's connection.
    struct Transceiver: Decodable, Equatable {
        var mid: String?
        var kind: String
        var direction: String
        var currentDirection: String?
    }

    /// A track event the page received (`RTCTrackEvent`): the receiver's track and the ids of its `streams`.
    struct TrackEvent: Decodable, Equatable {
        var kind: String
        var track: String
        var mid: String?
        var streams: [String]
    }

    /// A MediaStream some track event carried, with the ids of the tracks it holds now.
    struct Stream: Decodable, Equatable {
        var id: String
        var tracks: [String]
    }

    /// The page's connection after a step.
    struct State: Decodable, Equatable {
        var signalingState: String
        var transceivers: [Transceiver]
        var events: [TrackEvent]
        var streams: [Stream]

        /// The transceiver of `kind` (the page has one of each).
        func transceiver(_ kind: String) -> Transceiver? { transceivers.first { $0.kind == kind } }
    }

    /// What a step did: the browser's error (`"<name>: <message>"`) or `nil`, the SDP it made, and the state after it.
    struct Step: Decodable {
        var error: String?
        var value: String?
        var state: State
    }

    /// A line the witness answered that is not a step's result (`fail …`, or its exit).
    struct WitnessFailed: Error, CustomStringConvertible {
        var line: String
        var description: String { "the Chromium witness said: \(line)" }
    }

    private let session: PythonSession

    private init(session: PythonSession) { self.session = session }

    /// Starts the browser and waits until its page holds the connection.
    static func start() async throws -> ChromiumPeer {
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("chromium-peer-\(UUID().uuidString)").path
        let witness = try PythonSession(script: script.path, arguments: [Chromium.executable!, profile])
        let peer = ChromiumPeer(session: witness)
        let line = try await peer.nextLine("the page")
        guard line == "ready" else {
            peer.terminate()
            throw WitnessFailed(line: line)
        }
        return peer
    }

    /// Runs the page's step `name` with string arguments.
    func step(_ name: String, _ arguments: [String] = []) async throws -> Step {
        let json = String(decoding: try JSONEncoder().encode(arguments), as: UTF8.self)
        try session.send("step \(name) \(json)")
        let line = try await nextLine("the step \(name)")
        guard line.hasPrefix("step ") else { throw WitnessFailed(line: line) }
        return try JSONDecoder().decode(Step.self, from: Data(line.dropFirst("step ".count).utf8))
    }

    /// Runs a step that makes a description (createOffer, restartIce, createAnswer) and returns its SDP; records the
    /// browser's error and throws when it refused.
    func describe(_ name: String, _ arguments: [String] = []) async throws -> String {
        let result = try await step(name, arguments)
        guard result.error == nil, let sdp = result.value else {
            Issue.record("Chromium's \(name) failed: \(result.error ?? "no SDP")")
            throw WitnessFailed(line: result.error ?? "no SDP")
        }
        return sdp
    }

    /// Applies `sdp` as the page's remote description of `type` and returns the step; records the browser's exact
    /// error, with the SDP it refused, when it did.
    @discardableResult
    func setRemote(_ type: String, _ sdp: String, _ what: String) async throws -> Step {
        let result = try await step("setRemote", [type, sdp])
        if let error = result.error {
            Issue.record("Chromium refused \(what): \(error)\n--- the \(type) it refused ---\n\(sdp)")
        }
        return result
    }

    /// Says quit and waits for the witness to exit; its exit status.
    func quit() async throws -> Int32 {
        try session.send("quit")
        let session = session
        return try await bounded("the Chromium witness to exit") { await session.finish() }
    }

    /// Ends the witness at once (and, through it, the browser).
    func terminate() { session.terminate() }

    /// The witness's next line, within a deadline; past it the witness is terminated (its output then ends).
    private func nextLine(_ what: String) async throws -> String {
        let session = session
        return try await bounded("the Chromium witness: \(what)") { await session.nextLine() ?? "(the witness exited)" }
    }

    /// `body` (a blocking read or wait on the witness) within a deadline longer than the witness's own ones; past it
    /// the witness is terminated, which ends `body`.
    private func bounded<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async -> T) async throws -> T {
        let session = session
        return try await withDeadline(.seconds(40), what) {
            await withTaskCancellationHandler(operation: body, onCancel: { session.terminate() })
        }
    }
}
