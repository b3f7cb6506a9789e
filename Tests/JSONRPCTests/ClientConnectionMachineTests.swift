import JSONRPC
import Testing

/// The client's connection lifecycle without sockets, clocks or tasks: events in, actions and states out.
@Suite struct ClientConnectionMachineTests {
    typealias Machine = ClientConnectionMachine<String>

    private let drop = ConnectionEnd(code: 1006, reason: "network")

    /// A machine with `first` open (generation 1) and session `s1`.
    private func openMachine(reconnects: Bool = true, first: String = "c1") -> Machine {
        var machine = Machine(reconnects: reconnects, autoConnect: true)
        #expect(machine.connectRequested() == .startAttempt)
        #expect(machine.opened(first) == 1)
        machine.sessionIdReceived("s1")
        return machine
    }

    @Test func concurrentConnectsShareOneAttemptAndOpenedMakesTheConnectionCurrent() {
        var machine = Machine(reconnects: true, autoConnect: true)
        #expect(machine.connectionState == .disconnected(nil))
        #expect(machine.connectRequested() == .startAttempt)
        #expect(machine.connectionState == .connecting)
        #expect(machine.connectRequested() == .joinAttempt)
        #expect(machine.opened("c1") == 1)
        #expect(machine.connectionState == .connected)
        #expect(machine.connection == "c1")
        #expect(machine.connectRequested() == .none)
    }

    @Test func aFailedFirstConnectShowsItsEndAndTheNextConnectStartsAgain() {
        var machine = Machine(reconnects: true, autoConnect: false)
        _ = machine.connectRequested()
        let refused = ConnectionEnd(code: 1006, reason: "refused")
        machine.openFailed(refused)
        #expect(machine.connectionState == .disconnected(refused))
        guard case .fail(let end) = machine.sendAction else { Issue.record("a send should fail"); return }
        #expect(end == refused)
        #expect(machine.connectRequested() == .startAttempt)
    }

    @Test func aCloseWhileConnectingDisownsTheConnectionThatOpensLater() {
        var machine = Machine(reconnects: true, autoConnect: true)
        _ = machine.connectRequested()
        let bye = ConnectionEnd(code: 1000, reason: "bye")
        guard case .close(let connections) = machine.closeRequested(bye) else { Issue.record("nothing closed"); return }
        #expect(connections.isEmpty)
        #expect(machine.opened("late") == nil)
        #expect(machine.connectionState == .disconnected(bye))
        #expect(machine.connection == nil)
    }

    @Test func aLossReconnectsAndAResumeReSendsTheRequestsLostWithIt() {
        var machine = openMachine()
        let action = machine.connectionEnded(generation: 1, end: drop, pendingIDs: [.number(7), .number(8)])
        #expect(action == .reconnect(epoch: 1))
        #expect(machine.connectionState == .reconnecting(attempt: 1))
        guard case .waitForReconnection = machine.sendAction else { Issue.record("sends should wait"); return }
        #expect(machine.connectRequested() == .waitForReconnection)

        #expect(machine.attemptStarted(epoch: 1, attempt: 2) == true)
        #expect(machine.connectionState == .reconnecting(attempt: 2))
        let started = machine.handshakeStarted(epoch: 1, connection: "c2")
        #expect(started?.generation == 2)
        #expect(started?.sessionId == "s1")
        #expect(machine.connections == ["c2"])
        #expect(machine.connection == nil, "calls do not use a connection before its resume is answered")

        #expect(machine.resumeAnswered(epoch: 1, resumed: true) == [.number(7), .number(8)])
        #expect(machine.handshakeCompleted(epoch: 1, generation: 2, resumed: true) == true)
        #expect(machine.connectionState == .resumed)
        #expect(machine.connection == "c2")
        #expect(machine.sessionId == "s1")
    }

    @Test func aRefusedResumeForgetsTheSessionAndReSendsNothing() {
        var machine = openMachine()
        _ = machine.connectionEnded(generation: 1, end: drop, pendingIDs: [.number(3)])
        _ = machine.handshakeStarted(epoch: 1, connection: "c2")
        #expect(machine.resumeAnswered(epoch: 1, resumed: false).isEmpty)
        #expect(machine.sessionId == nil)
        #expect(machine.handshakeCompleted(epoch: 1, generation: 2, resumed: false) == true)
        #expect(machine.connectionState == .connected)
    }

    @Test(arguments: [1000, 1008, 4401, 4403, 4409] as [UInt16])
    func closeCodesThatForbidReconnectingStop(code: UInt16) {
        var machine = openMachine()
        let end = ConnectionEnd(code: code, reason: "refused")
        #expect(machine.connectionEnded(generation: 1, end: end, pendingIDs: []) == .stop)
        #expect(machine.connectionState == .disconnected(end))
    }

    @Test(arguments: [4401, 4403] as [UInt16])
    func aRefusalIsFinalForConnectAndForSendsEvenWithAutoConnect(code: UInt16) {
        // After the server closed with a refusal, or refused the first connection
        var closed = openMachine()
        let end = ConnectionEnd(code: code, reason: "refused")
        #expect(closed.connectionEnded(generation: 1, end: end, pendingIDs: []) == .stop)
        var refusedAtOnce = Machine(reconnects: true, autoConnect: true)
        _ = refusedAtOnce.connectRequested()
        refusedAtOnce.openFailed(end)
        for var machine in [closed, refusedAtOnce] {
            // Then a send fails with that end instead of connecting first, and so does connect
            guard case .fail(end?) = machine.sendAction else { Issue.record("a send should fail"); continue }
            #expect(machine.connectRequested() == .refused(end))
            #expect(machine.connectionState == .disconnected(end))
        }
    }

    @Test func withoutTheReconnectPolicyEveryLossStops() {
        var machine = openMachine(reconnects: false)
        #expect(machine.connectionEnded(generation: 1, end: drop, pendingIDs: []) == .stop)
        #expect(machine.connectionState == .disconnected(drop))
    }

    @Test func theEndOfAConnectionThatIsNoLongerTheClientsIsIgnored() {
        var machine = openMachine()
        #expect(machine.connectionEnded(generation: 0, end: drop, pendingIDs: []) == .ignore)
        #expect(machine.connectionState == .connected)
        #expect(machine.connection(ofGeneration: 0) == nil, "a late heartbeat of an old connection finds nothing")
        #expect(machine.connection(ofGeneration: 1) == "c1")
    }

    @Test func aHandshakeLostAfterItsResumeWasAnsweredLeavesTheLostRequestsToTheNextResume() {
        var machine = openMachine()
        _ = machine.connectionEnded(generation: 1, end: drop, pendingIDs: [.number(7), .number(8)])
        _ = machine.handshakeStarted(epoch: 1, connection: "c2")
        #expect(machine.resumeAnswered(epoch: 1, resumed: true) == [.number(7), .number(8)])
        // The connection ends while the client re-sends (or before it completes the handshake)
        #expect(machine.connectionEnded(generation: 2, end: drop, pendingIDs: [.number(7), .number(8)]) == .handshakeLost)
        #expect(machine.handshakeCompleted(epoch: 1, generation: 2, resumed: true) == false)

        // The next attempt's resume re-sends them again (the server dedupes the ids), rather than leaving them to
        // wait out their deadlines unsent
        #expect(machine.attemptStarted(epoch: 1, attempt: 2) == true)
        _ = machine.handshakeStarted(epoch: 1, connection: "c3")
        #expect(machine.resumeAnswered(epoch: 1, resumed: true) == [.number(7), .number(8)])
        #expect(machine.handshakeCompleted(epoch: 1, generation: 3, resumed: true) == true)
        #expect(machine.connectionState == .resumed)
    }

    @Test func aLostHandshakeSendsTheLoopToItsNextAttemptAndAnAbandonedOneIsForgotten() {
        var machine = openMachine()
        _ = machine.connectionEnded(generation: 1, end: drop, pendingIDs: [])
        _ = machine.handshakeStarted(epoch: 1, connection: "c2")
        #expect(machine.connectionEnded(generation: 2, end: drop, pendingIDs: []) == .handshakeLost)
        #expect(machine.connections.isEmpty)
        #expect(machine.connectionState == .reconnecting(attempt: 1))
        #expect(machine.handshakeCompleted(epoch: 1, generation: 2, resumed: true) == false)

        _ = machine.handshakeStarted(epoch: 1, connection: "c3")
        machine.handshakeAbandoned(generation: 3)
        #expect(machine.connections.isEmpty)
        #expect(machine.connectionEnded(generation: 3, end: drop, pendingIDs: []) == .ignore,
                "the abandoned connection's end arrives after the client stopped reading it")
    }

    @Test func aCloseDuringAReconnectionSupersedesItsLoop() {
        var machine = openMachine()
        _ = machine.connectionEnded(generation: 1, end: drop, pendingIDs: [.number(1)])
        _ = machine.handshakeStarted(epoch: 1, connection: "c2")
        let bye = ConnectionEnd(code: 1000, reason: "user")
        guard case .close(let connections) = machine.closeRequested(bye) else { Issue.record("nothing closed"); return }
        #expect(connections == ["c2"])
        #expect(machine.connectionState == .disconnected(bye))
        #expect(!machine.isCurrent(epoch: 1))
        #expect(machine.attemptStarted(epoch: 1, attempt: 2) == false)
        #expect(machine.handshakeStarted(epoch: 1, connection: "c3") == nil)
        #expect(machine.resumeAnswered(epoch: 1, resumed: true).isEmpty)
        #expect(machine.handshakeCompleted(epoch: 1, generation: 2, resumed: true) == false)
        #expect(machine.gaveUp(epoch: 1, end: drop) == false)
        #expect(machine.connectionState == .disconnected(bye), "the old loop changed nothing")
        guard case .none = machine.closeRequested(bye) else { Issue.record("a second close closed something"); return }
    }

    @Test func aLoopThatGivesUpLeavesTheClientDisconnectedWithItsReason() {
        var machine = openMachine()
        _ = machine.connectionEnded(generation: 1, end: drop, pendingIDs: [])
        let exhausted = ConnectionEnd(code: 1006, reason: "gave up")
        #expect(machine.gaveUp(epoch: 1, end: exhausted) == true)
        #expect(machine.connectionState == .disconnected(exhausted))
        #expect(machine.connectRequested() == .startAttempt, "a later connect starts afresh")
    }

    @Test func aSecondLossStartsANewEpochAndTheFirstLoopIsStale() {
        var machine = openMachine()
        _ = machine.connectionEnded(generation: 1, end: drop, pendingIDs: [])
        _ = machine.handshakeStarted(epoch: 1, connection: "c2")
        _ = machine.resumeAnswered(epoch: 1, resumed: true)
        #expect(machine.handshakeCompleted(epoch: 1, generation: 2, resumed: true) == true)
        #expect(machine.connectionEnded(generation: 2, end: drop, pendingIDs: []) == .reconnect(epoch: 2))
        #expect(!machine.isCurrent(epoch: 1))
        #expect(machine.isCurrent(epoch: 2))
    }

    @Test func sendsGoWhereThePhaseSays() {
        var machine = Machine(reconnects: true, autoConnect: true)
        guard case .connectFirst = machine.sendAction else { Issue.record("idle with autoConnect connects"); return }
        _ = machine.connectRequested()
        guard case .connectFirst = machine.sendAction else { Issue.record("connecting joins the attempt"); return }
        _ = machine.opened("c1")
        guard case .send(let connection) = machine.sendAction else { Issue.record("open sends"); return }
        #expect(connection == "c1")
    }
}
