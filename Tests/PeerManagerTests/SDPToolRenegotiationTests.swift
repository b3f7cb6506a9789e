import Foundation
import PeerManager
import SDP
import TestSupport
import Testing

/// `sdp-tool offer` and `sdp-tool answer` in renegotiations, run as the built binary: ICE restarts, direction
/// changes, the sources of sending sections, and answers to real stacks' offers.
@Suite struct SDPToolRenegotiationTests {
    /// A scratch directory for one test's files, removed when the test ends.
    final class Scratch {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdp-tool-reneg-\(UUID().uuidString)")

        init() throws { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Writes `text` to `name.sdp` and returns its path.
        func write(_ text: String, _ name: String) throws -> String {
            let url = directory.appendingPathComponent("\(name).sdp")
            try Data(text.utf8).write(to: url)
            return url.path
        }

        /// Runs `sdp-tool arguments`, expects status 0, and keeps its output as `name.sdp`.
        func make(_ name: String, _ arguments: [String]) throws -> Step {
            let result = try SDPToolAnswerTests.run(arguments)
            #expect(result.status == 0, "\(name): \(result.output)")
            return Step(path: try write(result.output, name), sdp: try SessionDescription(parsing: result.output), text: result.output)
        }
    }

    /// One description made by the tool.
    struct Step {
        let path: String
        let sdp: SessionDescription
        let text: String
    }

    /// The three exchanges of ``round(in:)``.
    struct Round {
        var o1, a1, o2, a2, o3, a3: Step
        var videoMid: String
    }

    static let ok = "ok: the answer satisfies every rule\n"

    /// The ICE credentials of each accepted section, as `ufrag pwd`.
    static func credentials(_ description: SessionDescription) -> [String] {
        description.media.indices.filter { description.media[$0].port != 0 }.map {
            "\(description.effectiveIceUfrag(ofMediaAt: $0) ?? "-") \(description.effectiveIcePwd(ofMediaAt: $0) ?? "-")"
        }
    }

    /// `check-answer` of `offer` and `answer`, with the current descriptions when given.
    static func check(_ offer: Step, _ answer: Step, current: (offerer: Step, answerer: Step)? = nil) throws -> (status: Int32, output: String) {
        var arguments = ["check-answer", offer.path, answer.path]
        if let current { arguments += ["--offerer-current", current.offerer.path, "--answerer-current", current.answerer.path] }
        return try SDPToolAnswerTests.run(arguments)
    }

    /// An initial exchange, an ICE restart and a direction change, each offered by the tool and answered by it.
    static func round(in scratch: Scratch) throws -> Round {
        let o1 = try scratch.make("o1", ["offer", "--seed", "1"])
        let a1 = try scratch.make("a1", ["answer", o1.path, "--seed", "2"])
        let videoMid = try #require(o1.sdp.media.first { $0.kind == "video" }?.mid)
        let o2 = try scratch.make("o2", ["offer", "--previous-offer", o1.path, "--previous-answer", a1.path, "--ice-restart"])
        let a2 = try scratch.make("a2", ["answer", o2.path, "--previous-offer", o1.path, "--previous-answer", a1.path])
        let o3 = try scratch.make("o3", ["offer", "--previous-offer", o2.path, "--previous-answer", a2.path,
                                         "--direction", "\(videoMid)=inactive"])
        let a3 = try scratch.make("a3", ["answer", o3.path, "--previous-offer", o2.path, "--previous-answer", a2.path])
        return Round(o1: o1, a1: a1, o2: o2, a2: a2, o3: o3, a3: a3, videoMid: videoMid)
    }

    @Test func iceRestartAndDirectionChangeRoundTripThroughTheCLI() throws {
        // Given an initial exchange, an ICE restart and a direction change made by the tool
        let scratch = try Scratch()
        let round = try Self.round(in: scratch)
        let (o1, a1, o2, a2, o3, a3) = (round.o1.sdp, round.a1.sdp, round.o2.sdp, round.a2.sdp, round.o3.sdp, round.a3.sdp)

        // Then the initial offer has audio and video, sendrecv, and its answer passes check-answer
        #expect(o1.media.map(\.kind) == ["audio", "video"])
        #expect(o1.media.indices.map { o1.effectiveDirection(ofMediaAt: $0) } == [.sendrecv, .sendrecv])
        #expect(try Self.check(round.o1, round.a1).output == Self.ok)

        // And the restart offer keeps the m-lines, mids, order, fingerprint and session id, with new credentials
        #expect(o2.media.map(\.kind) == o1.media.map(\.kind) && o2.media.map(\.mid) == o1.media.map(\.mid))
        #expect(Set(Self.credentials(o2)).count == 1 && Set(Self.credentials(o2)).isDisjoint(with: Self.credentials(o1)))
        #expect(o2.effectiveFingerprints(ofMediaAt: 0) == o1.effectiveFingerprints(ofMediaAt: 0))
        #expect(o2.origin?.sessionID == o1.origin?.sessionID)
        #expect((o2.origin?.sessionVersion ?? 0) > (o1.origin?.sessionVersion ?? .max))

        // And its answer has new credentials, keeps the DTLS role, session id and fingerprint, and passes the
        // renegotiation check
        #expect(Set(Self.credentials(a2)).isDisjoint(with: Self.credentials(a1)))
        #expect(a2.media.indices.map { a2.effectiveSetup(ofMediaAt: $0) } == a1.media.indices.map { a1.effectiveSetup(ofMediaAt: $0) })
        #expect(a2.origin?.sessionID == a1.origin?.sessionID)
        #expect((a2.origin?.sessionVersion ?? 0) > (a1.origin?.sessionVersion ?? .max))
        #expect(a2.effectiveFingerprints(ofMediaAt: 0) == a1.effectiveFingerprints(ofMediaAt: 0))
        let restartCheck = try Self.check(round.o2, round.a2, current: (round.o1, round.a1))
        #expect(restartCheck.status == 0 && restartCheck.output == Self.ok)

        // And a stale answer to the restart (the previous answer's credentials) breaks ice-restart on each section
        let old = try #require(a1.iceUfrag.flatMap { ufrag in a1.icePwd.map { (ufrag, $0) } })
        let new = try #require(a2.iceUfrag.flatMap { ufrag in a2.icePwd.map { (ufrag, $0) } })
        let staleText = round.a2.text.replacingOccurrences(of: new.0, with: old.0).replacingOccurrences(of: new.1, with: old.1)
        let stale = Step(path: try scratch.write(staleText, "stale"), sdp: try SessionDescription(parsing: staleText), text: staleText)
        let staleCheck = try Self.check(round.o2, stale, current: (round.o1, round.a1))
        #expect(staleCheck.status == 1)
        #expect(staleCheck.output.split(separator: "\n").map { $0.prefix { $0 != " " } } == ["ice-restart", "ice-restart"])

        // And the direction change offers video inactive with the same credentials, answered inactive with the
        // answerer's credentials kept
        let video = try #require(o3.media.firstIndex { $0.mid == round.videoMid })
        #expect(o3.media.indices.map { o3.effectiveDirection(ofMediaAt: $0) } == [.sendrecv, .inactive])
        #expect(Self.credentials(o3) == Self.credentials(o2))
        #expect(a3.effectiveDirection(ofMediaAt: video) == .inactive && a3.effectiveDirection(ofMediaAt: 0) == .sendrecv)
        #expect(Self.credentials(a3) == Self.credentials(a2))
        #expect(try Self.check(round.o3, round.a3, current: (round.o2, round.a2)).output == Self.ok)
    }

    @Test func subsequentOfferChangesOnlyTheKindsItNames() throws {
        // Given an initial exchange, and a subsequent offer that stops video and adds a data channel
        let scratch = try Scratch()
        let o1 = try scratch.make("o1", ["offer", "--seed", "6", "--audio", "sendonly"])
        let a1 = try scratch.make("a1", ["answer", o1.path, "--seed", "7"])
        let o2 = try scratch.make("o2", ["offer", "--previous-offer", o1.path, "--previous-answer", a1.path,
                                         "--video", "none", "--data"])

        // Then audio keeps its direction, video stays in place at port 0 and the data section follows with a new mid
        #expect(o2.sdp.media.map(\.kind) == ["audio", "video", "application"])
        #expect(o2.sdp.media.map(\.mid) == ["0", "1", "2"])
        #expect(o2.sdp.media.map(\.port) == [9, 0, 9])
        #expect(o2.sdp.effectiveDirection(ofMediaAt: 0) == .sendonly)
        #expect(Self.credentials(o2.sdp) == [Self.credentials(o1.sdp)[0], Self.credentials(o1.sdp)[0]])

        // And its answer, with the previous exchange, passes the renegotiation check
        let a2 = try scratch.make("a2", ["answer", o2.path, "--previous-offer", o1.path, "--previous-answer", a1.path])
        #expect(a2.sdp.media.map(\.port) == [9, 0, 9])
        #expect(a2.sdp.effectiveDirection(ofMediaAt: 0) == .recvonly)
        #expect(try Self.check(o2, a2, current: (o1, a1)).output == Self.ok)
    }

    /// What a sending section announces: `stream track`, the SSRCs, the cname.
    struct Sources: Equatable {
        var msid: String
        var ssrcs: [UInt32]
        var cname: String
    }

    /// The sources of each sending section of `description` by mid, after checking the shape of every section: a
    /// sending RTP section has one msid, a cname for each SSRC and an FID group exactly when it has RTX; any other
    /// section has none of them.
    static func sources(_ description: SessionDescription, _ name: String) -> [String: Sources] {
        var found: [String: Sources] = [:]
        for index in description.media.indices {
            let section = description.media[index]
            guard section.port != 0, section.proto.contains("RTP"), description.effectiveDirection(ofMediaAt: index).sends,
                  let mid = section.mid
            else {
                #expect(section.msids.isEmpty && section.ssrcAttributes.isEmpty && section.ssrcGroups.isEmpty, "\(name) m=\(index)")
                continue
            }
            let hasRTX = section.rtpMaps.contains { $0.encodingName.lowercased() == "rtx" }
            let cnames = section.ssrcAttributes.filter { $0.name == "cname" }
            #expect(section.msids.count == 1, "\(name) m=\(index)")
            #expect(Set(cnames.map(\.ssrc)) == Set(section.ssrcs) && Set(cnames.map(\.value)).count == 1, "\(name) m=\(index)")
            #expect(section.ssrcs.count == (hasRTX ? 2 : 1), "\(name) m=\(index)")
            #expect(section.ssrcGroups == (hasRTX ? [SSRCGroup(semantics: "FID", ssrcs: section.ssrcs)] : []), "\(name) m=\(index)")
            found[mid] = Sources(msid: section.msids.first?.attributeValue ?? "", ssrcs: section.ssrcs,
                                 cname: cnames.first?.value ?? "")
        }
        return found
    }

    @Test func sendingSectionsCarrySourcesThatStayAcrossRenegotiations() throws {
        // Given the round of the test above
        let round = try Self.round(in: try Scratch())
        let answers = [round.a1, round.a2, round.a3].enumerated().map { Self.sources($1.sdp, "a\($0 + 1)") }
        let offers = [round.o1, round.o2, round.o3].enumerated().map { Self.sources($1.sdp, "o\($0 + 1)") }

        // Then each side names the same stream, tracks and SSRCs for a mid in every exchange, and none once the
        // section is inactive
        for sources in [answers, offers] {
            #expect(sources[0].count == 2 && sources[0]["0"] != nil)
            #expect(sources[1] == sources[0])
            #expect(sources[2]["0"] == sources[0]["0"] && sources[2][round.videoMid] == nil)
            #expect(sources[0][round.videoMid]?.ssrcs.count == 2)  // VP8 and H264 with RTX: an FID group
        }
        // And the two sides' sources differ
        #expect(answers[0]["0"]?.cname != offers[0]["0"]?.cname)
        #expect(answers[0]["0"]?.ssrcs != offers[0]["0"]?.ssrcs)
    }

    /// `offer` as a subscriber sends it: every RTP section recvonly, announcing no sources.
    static func receiveOnly(_ offer: SessionDescription) throws -> SessionDescription {
        var changed = offer
        for index in changed.media.indices where changed.media[index].proto.contains("RTP") {
            changed.media[index].direction = .recvonly
            changed.media[index].msids = []
            changed.media[index].ssrcAttributes = []
            changed.media[index].ssrcGroups = []
        }
        return try SessionDescription(parsing: changed.serialized())
    }

    /// Answers the subscriber form of `offer`, then its ICE restart, and checks both with `check-answer`.
    static func answerSubscriberAndItsRestart(_ original: SessionDescription, _ name: String) throws {
        let scratch = try Scratch()
        let offerSDP = try receiveOnly(original)
        let offer = Step(path: try scratch.write(offerSDP.serialized(), "offer"), sdp: offerSDP, text: offerSDP.serialized())

        // The answer sends in each accepted RTP section, with a msid and a cname
        let answer = try scratch.make("answer", ["answer", offer.path, "--seed", "3"])
        let rtp = answer.sdp.media.indices.filter { answer.sdp.media[$0].port != 0 && answer.sdp.media[$0].proto.contains("RTP") }
        #expect(!rtp.isEmpty, "\(name)")
        #expect(rtp.map { answer.sdp.effectiveDirection(ofMediaAt: $0) } == rtp.map { _ in .sendonly }, "\(name)")
        let sources = Self.sources(answer.sdp, name)
        #expect(sources.count == rtp.count, "\(name)")
        #expect(try Self.check(offer, answer).output == Self.ok, "\(name)")

        // Its restart is answered with new credentials and the same sources, and passes the renegotiation check
        let restartSDP = try AnswerCheckerRenegotiationTests.with(offerSDP, ufrag: "rEsT", pwd: "restartedPasswordOf24ch")
        let restart = Step(path: try scratch.write(restartSDP.serialized(), "restart"), sdp: restartSDP, text: restartSDP.serialized())
        let renewed = try scratch.make("renewed", ["answer", restart.path, "--previous-offer", offer.path, "--previous-answer", answer.path])
        #expect(Set(Self.credentials(renewed.sdp)).isDisjoint(with: Self.credentials(answer.sdp)), "\(name)")
        #expect(Self.sources(renewed.sdp, name) == sources, "\(name)")
        let check = try Self.check(restart, renewed, current: (offer, answer))
        #expect(check.status == 0 && check.output == Self.ok, "\(name): \(check.output)")
    }

    @Test(arguments: ["chrome-offer.sdp", "firefox-offer.sdp"])
    func browserOffersMadeReceiveOnlyAreAnsweredAndRestarted(name: String) throws {
        try Self.answerSubscriberAndItsRestart(try SDPFiles.fixture(name), name)
    }

    /// The WebRTC-shaped offers of the corpus: every accepted section has a mid and ICE credentials, and the answer
    /// accepts an RTP section.
    static func webRTCShapedCorpusOffers() throws -> [(String, SessionDescription)] {
        try SDPFiles.corpusOffers().filter { _, offer in
            let accepted = offer.media.indices.filter { !offer.media[$0].isRejected }
            let shaped = accepted.allSatisfy {
                offer.media[$0].mid != nil && offer.effectiveIceUfrag(ofMediaAt: $0) != nil && offer.effectiveIcePwd(ofMediaAt: $0) != nil
            }
            let answer = AnswerBuilderTests.answer(try receiveOnly(offer))
            return shaped && !accepted.isEmpty && answer.media.contains { $0.port != 0 && $0.proto.contains("RTP") }
        }
    }

    @Test(.enabled(if: SDPFiles.corpusShouldRun, "sdp-transform corpus not found at ../shared/fixtures/sdp-transform; skipped"))
    func corpusOffersMadeReceiveOnlyAreAnsweredAndRestarted() throws {
        let offers = try Self.webRTCShapedCorpusOffers()
        #expect(offers.map(\.0) == ["hacky.sdp", "jsep.sdp", "jssip.sdp", "ssrc.sdp"])
        for (name, offer) in offers { try Self.answerSubscriberAndItsRestart(offer, name) }
    }

    @Test func usageErrorsExit2WithAClearMessage() throws {
        let scratch = try Scratch()
        let offer = try scratch.make("offer", ["offer", "--seed", "4"])
        let answer = try scratch.make("answer", ["answer", offer.path, "--seed", "5"])

        // The previous files go together, for either verb; --ice-restart needs them
        let halfAnswer = try SDPToolAnswerTests.run(["answer", offer.path, "--previous-offer", offer.path])
        #expect(halfAnswer.status == 2 && halfAnswer.output.contains("--previous-offer and --previous-answer go together"))
        #expect(try SDPToolAnswerTests.run(["offer", "--previous-answer", answer.path]).status == 2)
        #expect(try SDPToolAnswerTests.run(["offer", "--ice-restart"]).status == 2)

        // A bad --direction names the value and the directions allowed; one without '=' says the form
        let badDirection = try SDPToolAnswerTests.run(["offer", "--direction", "1=sideways"])
        #expect(badDirection.status == 2)
        #expect(badDirection.output.contains("'sideways' is not a direction; use one of sendrecv, sendonly, recvonly, inactive"))
        let noEquals = try SDPToolAnswerTests.run(["answer", offer.path, "--direction", "inactive"])
        #expect(noEquals.status == 2 && noEquals.output.contains("expected MID=DIR"))
        #expect(try SDPToolAnswerTests.run(["offer", "--video", "sideways"]).status == 2)
    }
}
