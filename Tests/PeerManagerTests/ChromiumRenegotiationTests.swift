import Foundation
import PeerManager
import SDP
import SignalingSupport
import Testing
import TestSupport

/// Headless Chromium as the browser side of a renegotiation round with our ``PeerManager`` as the media server
/// (docs/testing.md#witnesses). A subscriber page (recvonly audio and video) offers, we answer; it restarts ICE, turns
/// its video off and on again; then we offer video inactive and it answers. Every description of ours must be accepted
/// by the browser's own setRemoteDescription, and the tracks it receives must come in one MediaStream named by our
/// `a=msid` (KurentoRoom.js reads `getRemoteStreams()[0]`). Skips when chromium or python3's `websockets` is missing
/// (`make deps` installs both); fails then under `CI=true`.
@Suite struct ChromiumRenegotiationTests {
    @Test(
        .enabled(if: ChromiumPeer.shouldRun, "needs chromium and python3 websockets (make deps); required when CI=true"),
        .timeLimit(.minutes(3)))
    func chromiumAcceptsOurAnswersAndOffersThroughARenegotiationRound() async throws {
        if let missing = ChromiumPeer.missing {
            Issue.record("CI=true: \(missing)")
            return
        }
        let browser = try await ChromiumPeer.start()
        defer { browser.terminate() }
        var round = Round(browser: browser, manager: PeerManager(generator: SeededRandomNumberGenerator(seed: 2024)))
        try await round.subscribe()
        try await round.browserRestartsIce()
        try await round.browserTurnsVideo("inactive", answered: .inactive)
        try await round.browserTurnsVideo("recvonly", answered: .sendonly)
        try await round.weOfferVideoInactive()
        #expect(try await browser.quit() == 0)
    }
}

/// The round's state: the descriptions in force (the browser's offer and our answer) and what the first exchange
/// named.
private struct Round {
    let browser: ChromiumPeer
    let manager: PeerManager
    let id = "subscriber"
    var offer = SessionDescription(origin: Origin(sessionID: 0, sessionVersion: 0))
    var answer = SessionDescription(origin: Origin(sessionID: 0, sessionVersion: 0))
    var streamID = ""
    var videoIndex = 1
    var videoMid = ""
    var videoMsids: [MediaStreamID] = []
    var events: [ChromiumPeer.TrackEvent] = []

    init(browser: ChromiumPeer, manager: PeerManager) {
        self.browser = browser
        self.manager = manager
    }

    /// 1. The browser subscribes (recvonly audio and video) and accepts our answer; its tracks come in our stream.
    mutating func subscribe() async throws {
        let added = try await browser.step("addRecvonly", ["audio", "video"])
        try #require(added.error == nil, "addTransceiver: \(added.error ?? "")")
        let offerText = try await browser.describe("createOffer")
        offer = try SessionDescription(parsing: offerText)
        #expect(offer.media.map(\.kind) == ["audio", "video"])
        videoIndex = try #require(offer.media.firstIndex { $0.kind == "video" })
        videoMid = try #require(offer.media[videoIndex].mid)
        let answerText = try await manager.processOffer(offerText, for: id)
        answer = try SessionDescription(parsing: answerText)
        streamID = try #require(await manager.session(of: id)?.sources.streamID)

        // Our sending sections announce the stream, their track and their sources with a cname.
        let sending = answer.media.indices.filter { answer.effectiveDirection(ofMediaAt: $0).sends }
        #expect(sending.map { answer.media[$0].kind } == ["audio", "video"], "\(answerText)")
        for index in sending {
            let section = answer.media[index]
            #expect(section.msids.map(\.streamID) == [streamID], "m-line \(index): \(section.msids)")
            #expect(section.msids.first?.trackID != nil, "m-line \(index): an msid without a track id")
            #expect(!section.ssrcs.isEmpty, "m-line \(index) has no a=ssrc")
            for ssrc in section.ssrcs {
                #expect(section.ssrcAttributes.contains { $0.ssrc == ssrc && $0.name == "cname" && $0.value != nil },
                        "m-line \(index): a=ssrc:\(ssrc) has no cname")
            }
        }
        videoMsids = answer.media[videoIndex].msids

        // The browser accepts it, and each of its track events carries exactly our stream, which holds both tracks.
        let applied = try await browser.setRemote("answer", answerText, "our answer to its first offer")
        events = applied.state.events
        #expect(applied.state.signalingState == "stable")
        #expect(events.map(\.kind).sorted() == ["audio", "video"], "\(events)")
        #expect(applied.state.tracksArrive(inOne: streamID), "\(applied.state)")
    }

    /// 2. The browser restarts ICE: our answer has new credentials, keeps the answer rules and is accepted; the
    /// stream stays the one it was and no track event comes.
    mutating func browserRestartsIce() async throws {
        let (nextOffer, nextAnswer, applied) = try await exchange("restartIce", "our answer to its ICE restart")
        #expect(LocalSession.restartsICE(nextOffer, comparedWith: offer), "the browser's offer keeps its credentials")
        for index in nextAnswer.media.indices where nextAnswer.media[index].port != 0 {
            #expect(nextAnswer.effectiveIceUfrag(ofMediaAt: index) != answer.effectiveIceUfrag(ofMediaAt: index))
            #expect(nextAnswer.effectiveIcePwd(ofMediaAt: index) != answer.effectiveIcePwd(ofMediaAt: index))
        }
        #expect(nextAnswer.media[videoIndex].msids == videoMsids)
        #expect(await manager.session(of: id)?.sources.streamID == streamID)
        #expect(applied.state.events == events, "a track event after the ICE restart: \(applied.state.events)")
        #expect(applied.state.streams.map(\.id) == [streamID], "\(applied.state.streams)")
        (offer, answer) = (nextOffer, nextAnswer)
    }

    /// 3. The browser sets its video transceiver to `direction` and renegotiates: we answer `answered` for video,
    /// within the answer rules, and the browser accepts it; whatever track events come carry our stream only.
    mutating func browserTurnsVideo(_ direction: String, answered: MediaDirection) async throws {
        let turned = try await browser.step("setDirection", [videoMid, direction])
        try #require(turned.error == nil, "transceiver.direction = \(direction): \(turned.error ?? "")")
        let (nextOffer, nextAnswer, applied) = try await exchange("createOffer", "our answer to its video \(direction)")
        #expect(nextOffer.effectiveDirection(ofMediaAt: videoIndex).rawValue == direction)
        #expect(nextAnswer.effectiveDirection(ofMediaAt: videoIndex) == answered)
        #expect(nextAnswer.media[videoIndex].msids == (answered.sends ? videoMsids : []))
        #expect(nextAnswer.effectiveIceUfrag(ofMediaAt: 0) == answer.effectiveIceUfrag(ofMediaAt: 0))
        let video = applied.state.transceiver("video")
        #expect(video?.currentDirection == direction, "\(applied.state.transceivers)")
        let fresh = applied.state.events.dropFirst(events.count)
        if answered.sends {
            // The video track comes back (W3C: a track event when the receiver starts receiving again), in our stream.
            #expect(fresh.map(\.kind) == ["video"], "\(applied.state.events)")
            let tracks = Set(applied.state.streams.first?.tracks ?? [])
            #expect(tracks == Set(events.map(\.track)), "\(applied.state.streams)")
        } else {
            // W3C "process the removal of a remote track": the video track leaves the stream; no track event.
            #expect(fresh.isEmpty, "\(applied.state.events)")
            #expect(applied.state.streams.first?.tracks == tracks(of: "audio"), "\(applied.state.streams)")
        }
        for event in fresh { #expect(event.streams == [streamID], "\(event)") }
        #expect(applied.state.streams.map(\.id) == [streamID], "\(applied.state.streams)")
        events = applied.state.events
        (offer, answer) = (nextOffer, nextAnswer)
    }

    /// 4. We offer: video inactive (a subsequent offer with the same m-lines, mids and order); the browser accepts it
    /// and answers, and processAnswer accepts that answer.
    mutating func weOfferVideoInactive() async throws {
        try await manager.setDirection(.inactive, forMid: videoMid, of: id)
        let ourOfferText = try await manager.renegotiate(id)
        let ourOffer = try SessionDescription(parsing: ourOfferText)
        #expect(ourOffer.media.map(\.kind) == answer.media.map(\.kind))
        #expect(ourOffer.media.map(\.mid) == answer.media.map(\.mid))
        #expect(ourOffer.effectiveDirection(ofMediaAt: videoIndex) == .inactive)
        #expect(ourOffer.media[videoIndex].msids.isEmpty)
        let audioIndex = 1 - videoIndex
        #expect(ourOffer.effectiveDirection(ofMediaAt: audioIndex) == .sendonly)
        #expect(ourOffer.media[audioIndex].msids == answer.media[audioIndex].msids)

        try await browser.setRemote("offer", ourOfferText, "our subsequent offer")
        let theirAnswerText = try await browser.describe("createAnswer")
        let theirAnswer = try SessionDescription(parsing: theirAnswerText)
        do {
            try await manager.processAnswer(theirAnswerText, for: id)
        } catch {
            let sdp = "--- our offer ---\n\(ourOfferText)\n--- its answer ---\n\(theirAnswerText)"
            Issue.record("processAnswer refused Chromium's answer: \(error)\n\(sdp)")
        }
        // Beyond the enforced rules: a real browser's answer keeps every rule of our checker too (a violation here is
        // a checker rule that disagrees with Chromium, or Chromium bending one).
        let current = AnswerChecker.CurrentDescriptions(offerer: answer, answerer: offer)
        let violations = AnswerChecker.violations(offer: ourOffer, answer: theirAnswer, current: current)
        #expect(violations == [], "\(theirAnswerText)")
        #expect(theirAnswer.effectiveDirection(ofMediaAt: videoIndex) == .inactive)
        #expect(await manager.connection(id)?.signalingState == .stable)
        #expect(await manager.connection(id)?.currentLocalDescription?.sdp == ourOfferText)
        let after = try await browser.step("state")
        #expect(after.state.signalingState == "stable")
        #expect(after.state.transceiver("video")?.currentDirection == "inactive", "\(after.state.transceivers)")
        #expect(after.state.transceiver("audio")?.currentDirection == "recvonly", "\(after.state.transceivers)")
        #expect(after.state.streams.map(\.id) == [streamID], "\(after.state.streams)")
        #expect(after.state.streams.first?.tracks == tracks(of: "audio"), "\(after.state.streams)")
        #expect(after.state.events == events, "a track event after our offer: \(after.state.events)")
    }

    /// The ids of the browser's received tracks of `kind` (one receiver per kind, so one id).
    func tracks(of kind: String) -> [String] { Array(Set(events.filter { $0.kind == kind }.map(\.track))) }

    /// The browser makes an offer with `step`, we answer it and the browser applies the answer, which must
    /// succeed; our answer must keep every answer rule against the descriptions in force.
    func exchange(
        _ step: String, _ what: String
    ) async throws -> (offer: SessionDescription, answer: SessionDescription, applied: ChromiumPeer.Step) {
        let offerText = try await browser.describe(step)
        let nextOffer = try SessionDescription(parsing: offerText)
        let answerText = try await manager.processOffer(offerText, for: id)
        let nextAnswer = try SessionDescription(parsing: answerText)
        let current = AnswerChecker.CurrentDescriptions(offerer: offer, answerer: answer)
        #expect(AnswerChecker.violations(offer: nextOffer, answer: nextAnswer, current: current) == [], "\(answerText)")
        let applied = try await browser.setRemote("answer", answerText, what)
        #expect(applied.state.signalingState == "stable")
        return (nextOffer, nextAnswer, applied)
    }
}
