import ArgumentParser
import CLISupport
import JSONRPC
import RoomProtocol

/// The names `room-join` sends, checked before connecting by the rules the server applies
/// (``RoomProtocol/RoomNaming``, docs/wire-protocol.md#room-naming): a bad one is a usage error (exit 2), never a
/// server refusal after connecting.
extension RoomJoin {
    func validateNames() throws {
        guard !room.isEmpty else { throw ValidationError("--room must not be empty") }
        try Self.check("--room", room) { name throws(RoomError) in _ = try RoomNaming.normalizedRoomName(name) }
        try Self.check("--user", user) { name throws(RoomError) in _ = try RoomNaming.normalizedUserName(name) }
        let others = waitFor.map { ("--wait-for", $0) } + receive.map { ("--receive", $0) }
            + privateMessages.map { ("--private", $0.user) }
        for (option, name) in others {
            try Self.check(option, name) { name throws(RoomError) in _ = try RoomNaming.normalizedUserName(name) }
        }
    }

    private static func check(_ option: String, _ name: String, _ rule: (String) throws(RoomError) -> Void) throws {
        do {
            try rule(name)
        } catch {
            throw ValidationError("\(option): \(error.message)")
        }
    }

    /// The words and exit code of a failed join: 4 for a refusal (a Room error, or a cluster that cannot take the
    /// join now), 5 for anything else.
    static func joinFailure(_ error: any Error) -> (message: String, exitCode: Int32) {
        if let error = error as? RoomError { return ("join refused: \(error)", 4) }
        if let error = error as? RPCError, error.isAuthorizationRefusal { return ("join refused: \(Problem.describe(error))", 4) }
        if let remote = (error as? RPCError)?.remoteError, remote.code == -32000, remote.message == "cluster unavailable" {
            return ("join refused: the server's cluster is unavailable; nothing was reserved, try again later", 4)
        }
        if let remote = (error as? RPCError)?.remoteError, remote.code == -32601 {
            return ("join failed: \(Problem.unknownMethod("joinRoom", expected: "room"))", 5)
        }
        return ("join failed: \(Problem.describe(error))", 5)
    }
}
