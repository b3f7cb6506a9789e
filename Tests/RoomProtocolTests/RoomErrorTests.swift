import JSONRPC
import RoomProtocol
import Testing

@Suite struct RoomErrorTests {
    @Test func codesAreKurentosPlusMinusOneAndUnauthorized() {
        let kurento = [101, 102, 103, 104, 105, 201, 202, 203, 204, 301, 302, 303, 304, 305, 306, 307,
                       801, 802, 803, 999]
        #expect(Set(RoomErrorCode.allCases.map(\.rawValue)) == Set(kurento + [-1, 401]))
    }

    @Test func roomErrorIsBuiltFromAnErrorObjectWithARoomCode() {
        let message = "User 'bob' already exists in room 'room1'"
        let object = RPCErrorObject(code: 104, message: message, data: ["sessionId": "sidC"])
        let error = RoomError(object)
        #expect(error == RoomError(.existingUserInRoom, message: message, data: ["sessionId": "sidC"]))
        #expect(error?.errorObject == object)
    }

    @Test func remoteCallFailuresWithRoomCodesBecomeRoomErrors() {
        let failure = RPCError.remote(RPCErrorObject(code: -1, message: "RuntimeException:Unsupported method"))
        #expect(RoomError(failure)?.code == .uncaughtException)
    }

    @Test func nonRoomCodesAndLocalFailuresAreNotRoomErrors() {
        #expect(RoomError(RPCErrorObject.invalidParams("publishVideo params: 'doLoopback' is missing")) == nil)
        #expect(RoomError(RPCError.timeout(method: "joinRoom", attempts: 2)) == nil)
    }

    @Test func descriptionShowsCodeNameAndServerMessage() {
        #expect(RoomError.existingUser("bob", room: "room1").description
            == "room error 104 (EXISTING_USER_IN_ROOM): User 'bob' already exists in room 'room1'")
    }

    @Test func designGapErrorsUseTheirCodes() {
        #expect(RoomError.alreadyInRoom("room1").code == .userGeneric)
        #expect(RoomError.unauthorized.errorObject == RPCErrorObject(code: 401, message: "unauthorized"))
    }
}
