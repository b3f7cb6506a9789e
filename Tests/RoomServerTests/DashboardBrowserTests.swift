import Foundation
import JSONRPC
import RoomClient
import RoomServer
import Testing
import TestSupport

/// docs/operations.md#dashboard in a real browser: headless Chromium, driven through the DevTools protocol by
/// `Witness/dashboard_cdp.py`, loads `/dashboard?token=…` from an in-process server and follows its rooms live.
/// Skips with a message when chromium or python3's `websockets` is missing (`make deps` installs both); fails then
/// under `CI=true` (docs/testing.md#witnesses).
@Suite struct DashboardBrowserTests {
    static let missing: String? = Chromium.executable == nil
        ? "chromium is not installed (make deps installs Debian's chromium)" : Python.missing("websockets")

    static let witness = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Witness/dashboard_cdp.py").path

    /// Where the screenshot goes: under the build directory, and (once, or with `KS_UPDATE_SCREENSHOTS=1`) to
    /// docs/dashboard.png for the README.
    static let screenshot = SchemaValidation.packageRoot.appendingPathComponent(".build/dashboard-test/dashboard.png")
    static let readmeScreenshot = SchemaValidation.packageRoot.appendingPathComponent("docs/dashboard.png")

    @Test(.enabled(if: missing == nil || isCI, "needs chromium and python3 websockets (make deps); required when CI=true"))
    func dashboardShowsARoomAndFollowsAJoinAndALeave() async throws {
        if let missing = Self.missing {
            Issue.record("CI=true: \(missing)")
            return
        }
        // Given a server with an admin token, and alice publishing in "demo"
        let token = "dash-" + UUID().uuidString
        let server = try await RoomServer.start(.init(operations: .init(
            adminToken: token, snapshotInterval: .milliseconds(50), snapshotRefresh: .milliseconds(200),
            rttProbeInterval: .milliseconds(100))))
        let offer = try WebSocketRoomTests.chromeOffer()
        let alice = RoomClient(room: Room(username: "alice", roomName: "demo", url: server.url))
        try await alice.connect()
        _ = try await alice.join()
        _ = try await alice.publishVideo(sdpOffer: offer)

        // When Chromium opens the dashboard with the token in its URL
        let page = String(server.url.dropLast("/room".count)).replacingOccurrences(of: "ws://", with: "http://")
            + "/dashboard?token=" + token
        let profile = FileManager.default.temporaryDirectory
            .appendingPathComponent("dashboard-chromium-\(UUID().uuidString)").path
        let browser = try PythonSession(script: Self.witness, arguments: [Chromium.executable!, page, profile])
        defer { browser.terminate() }
        try await Self.expectLine(browser, "ready", "the page to load")

        // Then it shows the room, alice and her stream, live
        try await Self.expect(browser, ["state": "live", "rooms": ["demo": [
            "participants": ["alice"], "cells": ["alice": ["webcam"]]]]], "alice in demo")

        // When bob joins and receives alice's stream, the page shows him, receiving from alice, and (refreshed) both
        // connections' round-trip times
        let bob = RoomClient(room: Room(username: "bob", roomName: "demo", url: server.url))
        try await bob.connect()
        let peers = try await bob.join()
        _ = try await bob.receiveVideo(from: try #require(peers.first { $0.identifier == "alice" }), sdpOffer: offer)
        try await Self.expect(browser, ["state": "live", "rooms": ["demo": [
            "participants": ["alice", "bob"], "cells": ["alice": ["webcam"], "bob": ["alice"]]]]], "bob in demo")
        try await Self.expect(browser, ["rooms": ["demo": ["measured": ["alice", "bob"]]]], "the RTTs")

        // (The screenshot: the build directory, and the README's copy.)
        try FileManager.default.createDirectory(at: Self.screenshot.deletingLastPathComponent(),
                                                withIntermediateDirectories: true)
        try browser.send("screenshot " + Self.screenshot.path)
        try await Self.expectLine(browser, "ok", "the screenshot")
        print("dashboard screenshot: \(Self.screenshot.path)")
        if ProcessInfo.processInfo.environment["KS_UPDATE_SCREENSHOTS"] == "1"
            || !FileManager.default.fileExists(atPath: Self.readmeScreenshot.path) {
            _ = try? FileManager.default.removeItem(at: Self.readmeScreenshot)
            try FileManager.default.copyItem(at: Self.screenshot, to: Self.readmeScreenshot)
            print("dashboard screenshot copied to \(Self.readmeScreenshot.path)")
        }

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
