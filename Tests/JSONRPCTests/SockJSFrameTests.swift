import JSONRPC
import JSONRPCWebSocket
import Testing

/// SockJS's framing (docs/wire-protocol.md#sockjs), against sockjs/sockjs-protocol `sockjs-protocol-0.3.3.py`
/// ("Protocol and framing", "JSON Unicode Encoding", the WebSocket tests).
@Suite struct SockJSFrameTests {
    @Test func openAndHeartbeatFramesAreSingleLetters() {
        #expect(SockJSFrame.open == "o")
        #expect(SockJSFrame.heartbeat == "h")
    }

    @Test func messagesGoOutAsAJSONArrayOfStrings() throws {
        #expect(SockJSFrame.messages(["a"]) == #"a["a"]"#)
        #expect(SockJSFrame.messages(["x", "y"]) == #"a["x","y"]"#)
        let rpc = #"{"jsonrpc":"2.0","result":{"sessionId":"s"},"id":1}"#
        let frame = SockJSFrame.messages([rpc])
        #expect(frame == #"a["{\"jsonrpc\":\"2.0\",\"result\":{\"sessionId\":\"s\"},\"id\":1}"]"#)
        // The array's one string is the message again.
        #expect(try JSONValue(parsing: String(frame.dropFirst())) == [.string(rpc)])
    }

    @Test func browserMangledCharactersAreEscapedAndOthersAreNot() throws {
        // The specification's escapable_by_server: control characters, U+200C–U+200F, U+2028–U+202F,
        // U+2060–U+206F, U+FFF0–U+FFFF; other non-ASCII text goes out as it is.
        let message = "\u{1}\n\u{200C}\u{200F}\u{2028}\u{202F}\u{2060}\u{206F}\u{FFF0}\u{FFFF}é\u{2027}\u{2030}😀"
        let frame = SockJSFrame.messages([message])
        #expect(frame == #"a["\u0001\n\u200c\u200f\u2028\u202f\u2060\u206f\ufff0\uffffé"# + "\u{2027}\u{2030}😀\"]")
        #expect(try JSONValue(parsing: String(frame.dropFirst())) == [.string(message)])
    }

    @Test func closeFramesCarryTheCodeAndTheReason() {
        #expect(SockJSFrame.close(code: 3000, reason: "Go away!") == #"c[3000,"Go away!"]"#)
        #expect(SockJSFrame.close(code: 2010, reason: "Another connection still open")
            == #"c[2010,"Another connection still open"]"#)
        #expect(SockJSFrame.close(code: 1007, reason: "") == #"c[1007,""]"#)
        #expect(SockJSFrame.close(code: 4000, reason: #"say "no""#) == #"c[4000,"say \"no\""]"#)
    }

    @Test func clientFramesAreArraysOfStringsOrOneString() throws {
        #expect(try SockJSFrame.clientMessages(#"["a"]"#) == ["a"])
        #expect(try SockJSFrame.clientMessages(#"["a","b\"c"]"#) == ["a", #"b"c"#])
        #expect(try SockJSFrame.clientMessages(#""a""#) == ["a"])
        #expect(try SockJSFrame.clientMessages(#"["\u200c\ufff0"]"#) == ["\u{200C}\u{FFF0}"])
        // Empty frames are ignored (test_empty_frame); an empty array carries nothing.
        #expect(try SockJSFrame.clientMessages("") == [])
        #expect(try SockJSFrame.clientMessages("[]") == [])
    }

    @Test(arguments: [#"["a"#, "{}", "1", "null", #"["a",1]"#, #"[["a"]]"#, "a", #"{"jsonrpc":"2.0"}"#])
    func anythingElseFromTheClientIsMalformed(_ payload: String) {
        #expect(throws: SockJSFrame.Malformed.self) { try SockJSFrame.clientMessages(payload) }
    }
}

/// The URL scheme of SockJS's WebSocket transport (sockjs-protocol-0.3.3.py "Session URLs", "Raw WebSocket url").
@Suite struct SockJSPathTests {
    let prefixes: Set<String> = ["/kurento-tree", "/room"]

    @Test func infoRawWebSocketAndSessionURLs() {
        #expect(SockJSPath(path: "/kurento-tree/info", prefixes: prefixes) == .info(prefix: "/kurento-tree"))
        #expect(SockJSPath(path: "/kurento-tree/websocket", prefixes: prefixes) == .rawWebSocket(prefix: "/kurento-tree"))
        #expect(SockJSPath(path: "/room/000/abc-d_e/websocket", prefixes: prefixes)
            == .session(prefix: "/room", server: "000", session: "abc-d_e"))
        #expect(SockJSPath(path: "/room/a/a/websocket", prefixes: prefixes)?.isWebSocket == true)
        #expect(SockJSPath(path: "/room/info", prefixes: prefixes)?.isWebSocket == false)
    }

    @Test(arguments: ["/kurento-tree", "/kurento-tree/", "/kurento-tree//websocket", "/kurento-tree/a./a/websocket",
                      "/kurento-tree/a/a./websocket", "/kurento-tree/./././websocket", "/kurento-tree///websocket",
                      "/kurento-tree/a/a/xhr", "/kurento-tree/a/a/xhr_streaming", "/kurento-tree/a/a/eventsource",
                      "/kurento-tree/iframe.html", "/kurento-tree/a/websocket", "/kurento-tree/a/b/c/websocket",
                      "/kurento-treex/info", "/tree/info", "/info", "/websocket"])
    func otherPathsAreNotSockJS(_ path: String) {
        #expect(SockJSPath(path: path, prefixes: prefixes) == nil)
    }
}
