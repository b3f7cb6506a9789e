public import Foundation

/// One RTCPeerConnection in headless Chromium, as an independent witness of our descriptions
/// (docs/testing.md#witnesses): `Tests/Witness/chromium_peer.py` starts the browser through the shared DevTools driver
/// (`Tests/Witness/chromium_cdp.py`) and runs the page's steps; each step answers with the browser's exact error text
/// when the browser refuses, and with the connection as the page sees it. Where the browser refuses a description,
/// ``setRemote(_:_:_:)`` and ``describe(_:_:)`` throw with the browser's words (and the SDP it refused), which the
/// test then reports.
public final class ChromiumPeer: Sendable {
    /// Why the witness cannot run here; `nil` when chromium and python3's `websockets` are there.
    public static let missing: String? = Chromium.executable == nil
        ? "chromium is not installed (make deps installs Debian's chromium)" : Python.missing("websockets")

    /// Whether a test of it runs: the browser is there, or this is CI (where its absence fails the test).
    public static var shouldRun: Bool { missing == nil || isCI }

    /// The witness script.
    public static let script = SchemaValidation.packageRoot.appendingPathComponent("Tests/Witness/chromium_peer.py")

    /// A transceiver of the page's connection.
    public struct Transceiver: Decodable, Equatable, Sendable {
        public var mid: String?
        public var kind: String
        public var direction: String
        public var currentDirection: String?
    }

    /// A track event the page received (`RTCTrackEvent`): the receiver's track and the ids of its `streams`.
    public struct TrackEvent: Decodable, Equatable, Sendable {
        public var kind: String
        public var track: String
        public var mid: String?
        public var streams: [String]
    }

    /// A MediaStream some track event carried, with the ids of the tracks it holds now.
    public struct Stream: Decodable, Equatable, Sendable {
        public var id: String
        public var tracks: [String]
    }

    /// The page's connection after a step.
    public struct State: Decodable, Equatable, Sendable {
        public var signalingState: String
        public var transceivers: [Transceiver]
        public var events: [TrackEvent]
        public var streams: [Stream]

        /// The transceiver of `kind` (the page has one of each).
        public func transceiver(_ kind: String) -> Transceiver? { transceivers.first { $0.kind == kind } }

        /// Whether the received tracks are where KurentoRoom.js looks for them (`getRemoteStreams()[0]`): every track
        /// event carried exactly the stream `streamID`, the only stream there is, which holds every track received.
        public func tracksArrive(inOne streamID: String) -> Bool {
            events.allSatisfy { $0.streams == [streamID] } && streams.map(\.id) == [streamID]
                && Set(streams.first?.tracks ?? []) == Set(events.map(\.track))
        }
    }

    /// What a step did: the browser's error (`"<name>: <message>"`) or `nil`, the SDP it made, and the state after it.
    public struct Step: Decodable, Sendable {
        public var error: String?
        public var value: String?
        public var state: State
    }

    /// The witness answered a line that is not a step's result (`fail …`, or its exit), or the browser refused a
    /// step.
    public struct WitnessFailed: Error, CustomStringConvertible {
        public var description: String
    }

    private let session: PythonSession

    private init(session: PythonSession) { self.session = session }

    /// Starts the browser and waits until its page holds the connection.
    public static func start() async throws -> ChromiumPeer {
        guard let chromium = Chromium.executable else { throw WitnessFailed(description: missing ?? "no chromium") }
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("chromium-peer-\(UUID().uuidString)").path
        let witness = try PythonSession(script: script.path, arguments: [chromium, profile])
        let peer = ChromiumPeer(session: witness)
        let line = try await peer.nextLine("the page")
        guard line == "ready" else {
            peer.terminate()
            throw WitnessFailed(description: "the Chromium witness said: \(line)")
        }
        return peer
    }

    /// Runs the page's step `name` with string arguments.
    public func step(_ name: String, _ arguments: [String] = []) async throws -> Step {
        let json = String(decoding: try JSONEncoder().encode(arguments), as: UTF8.self)
        try session.send("step \(name) \(json)")
        let line = try await nextLine("the step \(name)")
        guard line.hasPrefix("step ") else { throw WitnessFailed(description: "the Chromium witness said: \(line)") }
        return try JSONDecoder().decode(Step.self, from: Data(line.dropFirst("step ".count).utf8))
    }

    /// Runs a step that makes a description (createOffer, restartIce, createAnswer) and returns its SDP; throws the
    /// browser's error when it refused.
    public func describe(_ name: String, _ arguments: [String] = []) async throws -> String {
        let result = try await step(name, arguments)
        guard result.error == nil, let sdp = result.value else {
            throw WitnessFailed(description: "Chromium's \(name) failed: \(result.error ?? "no SDP")")
        }
        return sdp
    }

    /// Applies `sdp` as the page's remote description of `type` and returns the step; throws the browser's exact
    /// error, with the SDP it refused, when it did (`what` names the description in that error).
    @discardableResult
    public func setRemote(_ type: String, _ sdp: String, _ what: String) async throws -> Step {
        let result = try await step("setRemote", [type, sdp])
        if let error = result.error {
            throw WitnessFailed(description: "Chromium refused \(what): \(error)\n--- the \(type) it refused ---\n\(sdp)")
        }
        return result
    }

    /// Says quit and waits for the witness to exit; its exit status.
    public func quit() async throws -> Int32 {
        try session.send("quit")
        let session = session
        return try await bounded("the Chromium witness to exit") { await session.finish() }
    }

    /// Ends the witness at once (and, through it, the browser).
    public func terminate() { session.terminate() }

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
