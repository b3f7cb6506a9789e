import JSONRPC
import RoomClient
import RoomServer
import TestSupport
import Testing

/// `room-join --custom` and the interactive `/custom` (issue 31, item 18), against an in-process ``RoomServer`` whose
/// customRequest hook echoes what it got and who asked.
@Suite("room-join customRequest")
struct RoomJoinCustomTests {
    @Test("--custom PARAMS and /custom PARAMS send a customRequest and print its result; a refusal goes on")
    func custom() async throws {
        let server = try await RoomServer.start(.init(customRequest: { request in
            if request.params["fail"] != nil { throw RPCErrorObject(code: 7, message: "no such thing") }
            return ["echo": request.params, "user": request.user.map(JSONValue.string) ?? .null]
        }))
        let alice = try ChildProcess("room-join", [server.url, "--room", "room1", "--user", "alice", "--interactive",
                                                  "--custom", #"{"n":1}"#], writableInput: true)
        var lines: [String] = []
        while let line = try await alice.nextLine() {
            lines.append(line)
            if line.hasPrefix("custom result") { break }
        }
        #expect(lines.last == #"custom result: {"echo":{"n":1},"user":"alice"}"#, "\(lines)")

        try alice.write("/custom {\"n\":2}\n/custom {\"fail\":true}\n/custom nope\n/leave\n")

        #expect(try await alice.nextLine() == #"custom result: {"echo":{"n":2},"user":"alice"}"#)
        #expect(try await alice.exitStatus() == 0)
        let stderr = await alice.stderr
        #expect(stderr.contains("cannot send the customRequest: 7 no such thing"), "\(stderr)")
        #expect(stderr.contains("cannot send the customRequest: --custom and /custom take a JSON object"), "\(stderr)")
        await server.shutdown()
    }
}
