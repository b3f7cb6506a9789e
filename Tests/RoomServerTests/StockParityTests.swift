import JSONRPC
import RoomServer
import Testing
import TestSupport

/// Where our Room server answers as a stock Kurento server does (docs/wire-protocol.md#deviations lists where it
/// does not): the same exchange, over real sockets, against our server and against TestSupport's
/// `StockKurentoRoomServer`, compared without the session ids.
@Suite struct StockParityTests {
    /// `message` without the session's own id (`sessionId` in a result or an error's `data`).
    static func withoutSession(_ message: JSONValue) -> JSONValue {
        guard case .object(var members) = message else { return message }
        members["id"] = nil
        if case .object(var result)? = members["result"] {
            result["sessionId"] = nil
            members["result"] = .object(result)
        }
        if case .object(var error)? = members["error"], case .object(var data)? = error["data"] {
            data["sessionId"] = nil
            error["data"] = .object(data)
            members["error"] = .object(error)
        }
        return .object(members)
    }

    /// Runs `exchange` on a peer of our server and on a peer of the stand-in; returns both transcripts.
    static func both(_ exchange: (RoomPeer) async throws -> [JSONValue]) async throws -> (ours: [JSONValue], stock: [JSONValue]) {
        let ours = try await RoomServer.start(.init(host: "127.0.0.1", port: 0))
        let stock = try StockKurentoRoomServer()
        defer { stock.stop() }
        let mine = try await exchange(try await RoomPeer.dialing(ours.url)).map(withoutSession)
        let theirs = try await exchange(try await RoomPeer.dialing(stock.url)).map(withoutSession)
        await ours.shutdown()
        return (mine, theirs)
    }

    @Test func aCandidateForSomeoneNotInTheRoomIsTakenAsStockTakesIt() async throws {
        let (ours, stock) = try await Self.both { peer in
            try await peer.join("alice", "r")
            return [try await peer.request("onIceCandidate", [
                "endpointName": "carol", "candidate": "candidate:1 1 udp 1 127.0.0.1 9 typ host", "sdpMid": "0",
                "sdpMLineIndex": 0,
            ])]
        }
        #expect(ours == stock)
        #expect(ours.first?["result"] == [:])
    }

    @Test func unsubscribingFromAPublisherNotReceivedIsAnsweredAsStockAnswersIt() async throws {
        let (ours, stock) = try await Self.both { peer in
            try await peer.join("alice", "r")
            return [try await peer.request("unsubscribeFromVideo", ["sender": "alice_webcam"])]
        }
        #expect(ours == stock)
        #expect(ours.first?["result"] == [:])
    }

    @Test func theDefaultCustomRequestRefusalIsStocksExactly() async throws {
        let (ours, stock) = try await Self.both { peer in
            try await peer.join("alice", "r")
            return [try await peer.request("customRequest", ["hat": true])]
        }
        #expect(ours == stock)
        // -1, the exception's simple name and message, a stack trace as a string, and no sessionId anywhere
        let error = try #require(ours.first?["error"])
        #expect(error["code"] == -1 && error["message"] == "RuntimeException:Unsupported method")
        #expect(error["data"]?.stringValue?.hasPrefix("java.lang.RuntimeException: Unsupported method\n\tat ") == true)
    }
}
