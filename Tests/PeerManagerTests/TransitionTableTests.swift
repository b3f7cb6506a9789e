import PeerManager
import SDP
import Testing

/// Every cell of the transition table of docs/sdp-jsep.md#transitions, through the real `PeerConnection`.
@Suite struct TransitionTableTests {
    struct Cell: Sendable, CustomTestStringConvertible {
        var from: SignalingState
        var side: DescriptionSide
        var type: DescriptionType
        var expected: SignalingState?  // nil: InvalidStateError (or closed)

        var testDescription: String {
            "\(from.rawValue) + \(side == .local ? "SLD" : "SRD") \(type.rawValue) → \(expected?.rawValue ?? "ISE")"
        }
    }

    /// The table, row by row, columns SLD offer/pranswer/answer/rollback then SRD offer/pranswer/answer/rollback.
    static let table: [(SignalingState, [SignalingState?])] = [
        (.stable, [.haveLocalOffer, nil, nil, nil, .haveRemoteOffer, nil, nil, nil]),
        (.haveLocalOffer, [.haveLocalOffer, nil, nil, .stable, .haveRemoteOffer, .haveRemotePranswer, .stable, .stable]),
        (.haveRemoteOffer, [nil, .haveLocalPranswer, .stable, .stable, .haveRemoteOffer, nil, nil, .stable]),
        (.haveLocalPranswer, [nil, .haveLocalPranswer, .stable, nil, nil, nil, nil, nil]),
        (.haveRemotePranswer, [nil, nil, nil, nil, nil, .haveRemotePranswer, .stable, nil]),
        (.closed, [nil, nil, nil, nil, nil, nil, nil, nil]),
    ]

    static let cells: [Cell] = table.flatMap { from, row in
        let columns: [(DescriptionSide, DescriptionType)] = [DescriptionSide.local, .remote].flatMap { side in
            [DescriptionType.offer, .pranswer, .answer, .rollback].map { (side, $0) }
        }
        return zip(columns, row).map { Cell(from: from, side: $0.0, type: $0.1, expected: $1) }
    }

    @Test func tableHasFortyEightCells() {
        #expect(Self.cells.count == 48)
    }

    @Test(arguments: cells)
    func cell(_ cell: Cell) throws {
        var pc = try Negotiation.connection(in: cell.from)
        let before = pc
        if let expected = cell.expected {
            _ = try Negotiation.perform(cell.side, cell.type, on: &pc)
            #expect(pc.signalingState == expected)
        } else {
            #expect(throws: PeerConnectionError.self) { try Negotiation.perform(cell.side, cell.type, on: &pc) }
            // "ISE: the promise rejects and nothing changes" — besides a created offer/answer the
            // application may have recorded before the failing call.
            #expect(pc.signalingState == before.signalingState)
            #expect(pc.localDescription == before.localDescription && pc.remoteDescription == before.remoteDescription)
        }
    }

    @Test(arguments: cells)
    func pureTableAgreesWithTheConnection(_ cell: Cell) {
        let outcome = SignalingTransition.of(cell.side, cell.type, in: cell.from)
        switch outcome {
        case .moveTo(let state): #expect(state == cell.expected)
        case .glare: #expect(cell.from == .haveLocalOffer && cell.expected == .haveRemoteOffer)
        case .invalidState: #expect(cell.expected == nil)
        }
    }

    @Test func invalidStateErrorNamesTheOperationAndState() throws {
        var pc = PeerConnection()
        #expect(throws: PeerConnectionError.invalidState(operation: "setLocalDescription(rollback)", state: .stable)) {
            try pc.setLocalDescription(.rollback)
        }
    }

    @Test func closedConnectionRejectsEverything() throws {
        var pc = try Negotiation.connection(in: .closed)
        #expect(throws: PeerConnectionError.closed) { try pc.setRemoteDescription(.offer, sdp: Negotiation.offer()) }
        #expect(throws: PeerConnectionError.closed) { try pc.createOffer(Negotiation.offerModel) }
        #expect(throws: PeerConnectionError.closed) { try pc.addRemoteCandidate(.endOfCandidates()) }
    }
}
