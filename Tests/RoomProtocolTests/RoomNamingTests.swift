import RoomProtocol
import Testing

@Suite struct RoomNamingTests {
    @Test func senderKeepsThePartBeforeTheFirstUnderscore() {
        #expect(StreamSender(wireValue: "alice_webcam") == StreamSender(user: "alice", streamId: "webcam"))
        #expect(StreamSender(wireValue: "a_b_c") == StreamSender(user: "a", streamId: "b_c"))
        #expect(StreamSender(wireValue: "_webcam") == StreamSender(user: "", streamId: "webcam"))
    }

    @Test func senderWithoutUnderscoreIsRejected() {
        #expect(StreamSender(wireValue: "alice") == nil)
    }

    @Test func senderDefaultsToTheWebcamStream() {
        #expect(StreamSender(user: "alice").wireValue == "alice_webcam")
        #expect(ReceiveVideoFromParams(sender: StreamSender(user: "alice"), sdpOffer: "v=0").sender == "alice_webcam")
    }

    @Test(arguments: ["", "a_b", "_", "line\nbreak", "bell\u{7}", "del\u{7F}", "nul\u{0}"])
    func userNamesThatAreEmptyOrHoldUnderscoresOrControlCharactersGet999(_ name: String) {
        let error = #expect(throws: RoomError.self) { try RoomNaming.validateUserName(name) }
        #expect(error?.code == .generic)
    }

    @Test func emptyUserNameGetsKurentosMessage() {
        let error = #expect(throws: RoomError.self) { try RoomNaming.validateUserName("") }
        #expect(error?.message == "Empty user name is not allowed")
    }

    @Test(arguments: ["alice", "Zoë", "bob smith", "用户", "a-b.c"])
    func ordinaryUserNamesAreAccepted(_ name: String) {
        #expect(throws: Never.self) { try RoomNaming.validateUserName(name) }
    }

    @Test func ownNameIsThePublisherEndpoint() {
        #expect(RoomEndpoint(endpointName: "alice", ownName: "alice") == .publisher)
        #expect(RoomEndpoint.publisher.endpointName(ownName: "alice") == "alice")
    }

    @Test func anotherUsersNameIsTheSubscriptionToThatUser() {
        #expect(RoomEndpoint(endpointName: "alice", ownName: "bob") == .subscriber(to: "alice"))
        #expect(RoomEndpoint.subscriber(to: "alice").endpointName(ownName: "bob") == "alice")
    }
}
