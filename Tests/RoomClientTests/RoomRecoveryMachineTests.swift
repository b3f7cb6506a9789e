import JSONRPC
import RoomProtocol
import Testing

@testable import RoomClient

/// RoomClient's recovery without sockets or clocks: what the calls, the room and the connection tell it, and what
/// it answers.
@Suite struct RoomRecoveryMachineTests {
    private let params = JoinRoomParams(user: "alice", room: "demo", dataChannels: true)

    /// Joined as alice, publishing, subscribed to bob and carol.
    private func inTheRoom() -> RoomRecoveryMachine {
        var machine = RoomRecoveryMachine()
        machine.joined(params)
        machine.published(loopback: true)
        machine.subscribed(to: "bob")
        machine.subscribed(to: "carol")
        return machine
    }

    /// Lost the connection and reconnected into a fresh session: returns the rejoin round.
    private func freshSession(_ machine: inout RoomRecoveryMachine) -> Int? {
        #expect(machine.connectionChanged(to: .reconnecting(attempt: 1), isJoined: true) == .none)
        #expect(machine.phase == .lost)
        guard case .rejoin(let rejoin?, let round) = machine.connectionChanged(to: .connected, isJoined: false) else {
            Issue.record("a fresh session after a loss in the room rejoins")
            return nil
        }
        #expect(rejoin == params, "the rejoin uses the same user, room and data-channel setting")
        return round
    }

    @Test func aFreshSessionRejoinsAndRestoresThePublicationAndTheSubscriptionsToPublishers() throws {
        var machine = inTheRoom()
        let round = try #require(freshSession(&machine))
        #expect(machine.isRejoining(round: round))

        let endpoints = machine.rejoined { $0 == "bob" }
        #expect(endpoints == [.publisher, .subscriber(to: "bob")], "carol no longer publishes")
        #expect(machine.subscriptions == ["bob"])
        #expect(machine.phase == .steady)
    }

    @Test func aResumedSessionNeedsNoRejoin() {
        var machine = inTheRoom()
        _ = machine.connectionChanged(to: .reconnecting(attempt: 1), isJoined: true)
        #expect(machine.connectionChanged(to: .resumed, isJoined: true) == .none)
        #expect(machine.phase == .steady)
        #expect(machine.connectionChanged(to: .connected, isJoined: true) == .none, "a later connect is not a loss")
    }

    @Test func aDisconnectForGoodForgetsTheRoom() {
        var machine = inTheRoom()
        #expect(machine.connectionChanged(to: .disconnected(nil), isJoined: true) == .forgetRoom)
        #expect(machine.join == nil)
        #expect(machine.publishLoopback == nil)
        #expect(machine.subscriptions.isEmpty)
        _ = machine.connectionChanged(to: .reconnecting(attempt: 1), isJoined: false)
        #expect(machine.phase == .steady, "out of the room, a loss is nothing to recover")
    }

    @Test func aLossOutsideTheRoomResetsTheModelWithoutRejoining() {
        var machine = RoomRecoveryMachine()
        _ = machine.connectionChanged(to: .reconnecting(attempt: 1), isJoined: true)
        guard case .rejoin(nil, _) = machine.connectionChanged(to: .connected, isJoined: false) else {
            Issue.record("a joined model without join params resets without a rejoin")
            return
        }
        #expect(machine.phase == .steady)
    }

    @Test func aTakenNameIsRetriedWithDoublingWaitsUntilTheNameReleaseWaitRunsOut() throws {
        var machine = inTheRoom()
        let round = try #require(freshSession(&machine))
        var waits: [Duration] = []
        while case .retry(let delay) = machine.rejoinRefused(round: round, nameTaken: true) { waits.append(delay) }
        #expect(waits.prefix(5) == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(2)])
        let total = waits.reduce(Duration.zero, +)
        #expect(total >= RoomRecoveryMachine.nameReleaseWait)
        #expect(total < RoomRecoveryMachine.nameReleaseWait + RoomRecoveryMachine.maximumDelay)
        #expect(machine.phase == .steady, "gave up")
    }

    @Test func anyOtherRefusalGivesUpAtOnce() throws {
        var machine = inTheRoom()
        let round = try #require(freshSession(&machine))
        #expect(machine.rejoinRefused(round: round, nameTaken: false) == .giveUp)
    }

    @Test func aRejoinSupersededByALaterLossStopsQuietly() throws {
        var machine = inTheRoom()
        let first = try #require(freshSession(&machine))
        let second = try #require(freshSession(&machine))
        #expect(first != second)
        #expect(!machine.isRejoining(round: first))
        #expect(machine.rejoinRefused(round: first, nameTaken: true) == .stop)
        #expect(machine.isRejoining(round: second))
    }

    @Test func theRoomsEventsTrimWhatIsRestored() {
        var machine = inTheRoom()
        machine.observe(.participantUnpublished(Peer(identifier: "bob")))
        machine.observe(.participantLeft(Peer(identifier: "carol")))
        #expect(machine.subscriptions.isEmpty)
        #expect(machine.join == params)
        machine.observe(.participantEvicted)
        #expect(machine.join == nil)
        #expect(machine.publishLoopback == nil)
    }

    @Test func theCallsRecordWhatToRestore() {
        var machine = inTheRoom()
        machine.unpublished()
        machine.unsubscribed(from: "bob")
        #expect(machine.publishLoopback == nil)
        #expect(machine.subscriptions == ["carol"])
        machine.forget()
        #expect(machine.join == nil)
        #expect(machine.subscriptions.isEmpty)
    }

    @Test func aResumeWithoutReplayResyncsFromTheFirstBaselineAndAResumeWithReplayDoesNot() throws {
        // A resume into a server that replays: nothing to do
        var machine = inTheRoom()
        _ = machine.connectionChanged(to: .reconnecting(attempt: 1), isJoined: true)
        #expect(machine.connectionChanged(to: .resumed, isJoined: true, replayed: true) == .none)
        #expect(machine.phase == .steady)

        // A resume into one that does not: a resync round, whose baseline is the first one known
        _ = machine.connectionChanged(to: .reconnecting(attempt: 1), isJoined: true)
        guard case .resync(let resync, let round) = machine.connectionChanged(to: .resumed, isJoined: true, replayed: false)
        else {
            Issue.record("a resume without replay resyncs")
            return
        }
        #expect(resync == params && machine.isRejoining(round: round))
        machine.resyncBegan(knowing: [Peer(identifier: "bob")])
        // The stock server closed the socket after leaveRoom: the fresh session's rejoin completes the resync
        let rejoinRound = try #require(freshSession(&machine))
        machine.resyncBegan(knowing: [])
        #expect(machine.isRejoining(round: rejoinRound))
        #expect(machine.takeResyncBaseline() == [Peer(identifier: "bob")])
        #expect(machine.takeResyncBaseline() == nil)
    }

    @Test func theDifferencesOfAResyncNameWhoLeftJoinedPublishedAndStopped() {
        let before = [Peer(identifier: "bob", streams: ["webcam"]), Peer(identifier: "carol"), Peer(identifier: "dave")]
        let after = [Peer(identifier: "bob"), Peer(identifier: "carol", streams: ["webcam"]), Peer(identifier: "erin", streams: ["webcam"])]
        #expect(PeersModel.differences(from: before, to: after) == [
            .participantLeft(Peer(identifier: "dave")),
            .participantUnpublished(Peer(identifier: "bob")),
            .participantPublished(Peer(identifier: "carol", streams: ["webcam"])),
            .participantJoined(Peer(identifier: "erin")),
            .participantPublished(Peer(identifier: "erin", streams: ["webcam"])),
        ])
        #expect(PeersModel.differences(from: after, to: after).isEmpty)
    }
}
