import Foundation
import JSONRPC
import RoomClient
import RoomServer
import Testing
import TestSupport

/// docs/operations.md#dashboard in a real browser: headless Chromium, driven through the DevTools protocol by
/// `Witness/dashboard_cdp.py`, logs in at `/dashboard` on an in-process server and follows its rooms live
/// (with Kurento Media Server: `DashboardBrowserTests+Kurento.swift`).
/// Skips with a message when chromium or python3's `websockets` is missing (`make deps` installs both); fails then
/// under `CI=true` (docs/testing.md#witnesses).
@Suite struct DashboardBrowserTests {
    static let missing: String? = Chromium.executable == nil
        ? "chromium is not installed (make deps installs Debian's chromium)" : Python.missing("websockets")

    static let witness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Witness/dashboard_cdp.py").path

    /// Where the screenshot goes: under the build directory, and (once, or with `KS_UPDATE_SCREENSHOTS=1`) to
    /// docs/dashboard.png for docs/operations.md ("At a glance").
    static let screenshot = SchemaValidation.packageRoot.appendingPathComponent(".build/dashboard-test/dashboard.png")
    static let readmeScreenshot = SchemaValidation.packageRoot.appendingPathComponent("docs/dashboard.png")

    @Test(.enabled(if: missing == nil || isCI, "needs chromium and python3 websockets (make deps); required when CI=true"))
    func dashboardShowsARoomAndFollowsAJoinAndALeave() async throws {
        if let missing = Self.missing {
            Issue.record("CI=true: \(missing)")
            return
        }
        // Given a server with an admin token and the simulated media, and alice publishing in "demo"
        let token = "dash-" + UUID().uuidString
        let server = try await RoomServer.start(.init(operations: Self.operations(token)))
        let offer = try WebSocketRoomTests.chromeOffer()
        let alice = RoomClient(room: Room(username: "alice", roomName: "demo", url: server.url))
        try await alice.connect()
        _ = try await alice.join()
        _ = try await alice.publishVideo(sdpOffer: offer)

        // When Chromium opens the dashboard and logs in with the token
        let browser = try await Self.openDashboard(server, token: token)
        defer { browser.terminate() }

        // Then it shows the room, without a media server, alice and her stream, whose flow nobody reports: unknown,
        // not stuck
        try await Self.expect(browser, ["state": "live", "stuck": 0, "rooms": ["demo": [
            "mediaServer": "none", "participants": ["alice"], "cells": ["alice": ["webcam"]],
            "flows": ["alice": ["webcam": "unknown"]]]]], "alice in demo")

        // When bob joins and receives alice's stream, the page shows him, receiving from alice, and (refreshed) both
        // connections' round-trip times
        let bob = RoomClient(room: Room(username: "bob", roomName: "demo", url: server.url))
        try await bob.connect()
        let peers = try await bob.join()
        _ = try await bob.receiveVideo(from: try #require(peers.first { $0.identifier == "alice" }), sdpOffer: offer)
        try await Self.expect(browser, ["state": "live", "stuck": 0, "rooms": ["demo": [
            "participants": ["alice", "bob"], "cells": ["alice": ["webcam"], "bob": ["alice"]],
            "flows": ["bob": ["alice": "unknown"]]]]], "bob in demo")
        try await Self.expect(browser, ["rooms": ["demo": ["measured": ["alice", "bob"]]]], "the RTTs")

        // When bob leaves, he disappears; when alice leaves too, so does the room
        try await bob.leave()
        try await Self.expect(browser, ["rooms": ["demo": ["participants": ["alice"]]]], "bob gone")
        try await alice.leave()
        try await Self.expect(browser, ["rooms": ["demo": nil]], "the room gone")

        try browser.send("quit")
        #expect(await browser.finish() == 0)
        await alice.disconnect()
        await bob.disconnect()
        await server.shutdown()
    }

    /// The operations settings of these tests: `token`, and snapshots and RTT probes often enough to see them soon.
    static func operations(_ token: String) -> OperationsConfiguration {
        OperationsConfiguration(adminToken: token, snapshotInterval: .milliseconds(50),
                                snapshotRefresh: .milliseconds(200), rttProbeInterval: .milliseconds(100))
    }

    /// Starts the witness on `server`'s `/dashboard`, which logs in with `token` through the page's form, and waits
    /// until the dashboard has loaded.
    static func openDashboard(_ server: RoomServer, token: String) async throws -> PythonSession {
        let page = String(server.url.dropLast("/room".count)).replacingOccurrences(of: "ws://", with: "http://")
            + "/dashboard"
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("dashboard-chromium-\(UUID().uuidString)").path
        let browser = try PythonSession(script: witness, arguments: [Chromium.executable!, page, profile, token])
        do {
            try await expectLine(browser, "ready", "the page to load")
        } catch {
            browser.terminate()
            throw error
        }
        return browser
    }

    /// Has the witness take a screenshot to ``screenshot``, and copies it to ``readmeScreenshot`` when that is
    /// missing or `KS_UPDATE_SCREENSHOTS=1`.
    static func takeScreenshot(_ browser: PythonSession) async throws {
        try FileManager.default.createDirectory(at: screenshot.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try browser.send("screenshot " + screenshot.path)
        try await expectLine(browser, "ok", "the screenshot")
        print("dashboard screenshot: \(screenshot.path)")
        if ProcessInfo.processInfo.environment["KS_UPDATE_SCREENSHOTS"] == "1"
            || !FileManager.default.fileExists(atPath: readmeScreenshot.path) {
            _ = try? FileManager.default.removeItem(at: readmeScreenshot)
            try FileManager.default.copyItem(at: screenshot, to: readmeScreenshot)
            print("dashboard screenshot copied to \(readmeScreenshot.path)")
        }
    }

    /// Asks the witness to wait for `expectation` (its own deadline) and records an issue if it did not come.
    static func expect(_ browser: PythonSession, _ expectation: JSONValue, _ what: String) async throws {
        try browser.send("expect " + expectation.jsonText)
        try await expectLine(browser, "ok", what)
    }

    /// Reads the witness's next line, which must start with `prefix`.
    static func expectLine(_ browser: PythonSession, _ prefix: String, _ what: String) async throws {
        let line = await browser.nextLine() ?? "(the witness exited)"
        guard line == prefix || line.hasPrefix(prefix + " ") else {
            Issue.record("dashboard: waiting for \(what): \(line)")
            throw DashboardWitnessFailed(line: line)
        }
    }

    struct DashboardWitnessFailed: Error {
        var line: String
    }
}
