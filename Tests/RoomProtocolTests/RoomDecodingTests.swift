import JSONRPC
import RoomProtocol
import Testing

/// The Swift side of the wire: every sample survives encode → decode, and every negative sample is rejected with
/// the member at fault named (docs/wire-protocol.md#error-codes: -32602 names the param).
@Suite struct RoomDecodingTests {
    @Test func requestsRoundTripThroughTheirParams() throws {
        for request in RoomSamples.requests {
            #expect(try RoomRequest(method: request.method, params: request.params) == request)
        }
    }

    @Test func resultsRoundTripThroughKurentoConventions() throws {
        for sample in RoomSamples.results {
            let wire = KurentoConventions.result(sample.result.json, sessionId: RoomSamples.sessionId)
            #expect(try RoomResult(method: sample.method, result: wire) == sample.result, "\(sample.method): \(wire)")
        }
    }

    @Test func notificationsRoundTripThroughTheirParams() throws {
        for notification in RoomSamples.notifications {
            #expect(try RoomNotification(method: notification.method, params: notification.params) == notification)
        }
    }

    @Test(arguments: NegativeSample.all)
    func decoderRejectsNegativeSampleNamingTheMember(_ sample: NegativeSample) {
        let error = #expect(throws: RoomDecodingError.self) { try sample.decode() }
        #expect(error?.member == sample.member, "\(error.map(String.init(describing:)) ?? "no error")")
    }

    @Test func invalidParamsAnswerNamesTheParam() {
        // Given publishVideo params without doLoopback
        let error = #expect(throws: RoomDecodingError.self) {
            try RoomRequest(method: .publishVideo, params: ["sdpOffer": "v=0"])
        }
        // Then the server's -32602 names the param
        #expect(error?.invalidParams.code == -32602)
        #expect(error?.invalidParams.data == "publishVideo params: 'doLoopback' is missing")
    }

    @Test func mistypedParamSaysWhichTypeIsExpected() {
        let error = #expect(throws: RoomDecodingError.self) {
            try RoomNotification(method: .iceCandidate,
                                 params: ["endpointName": "a", "candidate": "c", "sdpMid": "v", "sdpMLineIndex": "1"])
        }
        #expect(error?.problem == .wrongType(expected: "an integer"))
        #expect(error?.description == "iceCandidate notification: 'sdpMLineIndex' must be an integer")
    }

    @Test func mistypedListSaysAnArrayIsExpected() {
        let error = #expect(throws: RoomDecodingError.self) {
            try RoomResult(method: .joinRoom, result: ["value": "alice", "sessionId": "sidA"])
        }
        #expect(error?.description == "joinRoom result: 'value' must be an array")
    }

    @Test func unknownMembersAddedByKurentoClientsAreIgnored() throws {
        // The Java client injects params.sessionId; the JS client merges setRpcParams() into every request.
        let params: JSONValue = ["user": "alice", "room": "room1", "sessionId": "sidA", "extra": [1]]
        #expect(try RoomRequest(method: .joinRoom, params: params) == .joinRoom(.init(user: "alice", room: "room1")))
    }

    @Test func paramlessRequestsSendNoParams() {
        #expect(RoomRequest.leaveRoom.params == nil)
        #expect(RoomRequest.unpublishVideo.params == nil)
    }

    @Test func nonPublishersAreListedWithoutStreams() {
        let json = RoomResult.joined([RoomParticipant(id: "carol", streams: [])]).json
        #expect(json == ["value": [["id": "carol"]]])
    }
}
