@testable import RoomProtocol
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

    // Issue 30 item 8: look-alike names. Format (Cf) and bidi characters, line and paragraph separators,
    // private-use and unassigned code points are refused, in user and room names alike.
    @Test(arguments: ["alice\u{200B}", "\u{202E}ecila", "a\u{200D}b", "x\u{2066}y\u{2069}", "soft\u{AD}hyphen",
                      "line\u{2028}sep", "para\u{2029}sep", "private\u{E000}", "unassigned\u{378}", "bom\u{FEFF}"])
    func formatBidiSeparatorPrivateAndUnassignedCharactersGet999(_ name: String) {
        let user = #expect(throws: RoomError.self) { try RoomNaming.validateUserName(name) }
        #expect(user?.code == .generic)
        #expect(user?.message.contains(name) == false, "the refused name is shown escaped: \(user?.message ?? "")")
        let room = #expect(throws: RoomError.self) { try RoomNaming.validateRoomName(name) }
        #expect(room?.code == .generic)
    }

    // Issue 30 item 5: room names follow the name rules too (a newline could forge a log line, and split the
    // cluster's `room\nuser` entries).
    @Test(arguments: ["lobby\nx", "tab\there", "bell\u{7}", "\u{202E}moor", "x\u{200B}"])
    func roomNamesWithControlFormatOrBidiCharactersGet999(_ name: String) {
        let error = #expect(throws: RoomError.self) { try RoomNaming.validateRoomName(name) }
        #expect(error?.code == .generic)
    }

    @Test func namesOverTheLengthLimitGet999WithoutBeingEchoed() {
        let long = String(repeating: "é", count: 129)  // 258 UTF-8 bytes
        let errors = [
            #expect(throws: RoomError.self) { _ = try RoomNaming.normalizedUserName(long) },
            #expect(throws: RoomError.self) { _ = try RoomNaming.normalizedRoomName(long) },
        ]
        for error in errors {
            #expect(error?.code == .generic)
            #expect(error?.message.contains("258 bytes exceeds 256") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(long) == false)
        }
        #expect(throws: Never.self) { _ = try RoomNaming.normalizedRoomName(String(repeating: "é", count: 128)) }
    }

    @Test(arguments: ["lobby", "Zoë's room", "会议室", "a_b", "#general"])
    func ordinaryRoomNamesAreAccepted(_ name: String) {
        #expect(throws: Never.self) { try RoomNaming.validateRoomName(name) }
    }

    @Test func namesAreNormalizedToNFKC() throws {
        #expect(try RoomNaming.normalizedUserName("ａｌｉｃｅ") == "alice")  // fullwidth
        #expect(try RoomNaming.normalizedUserName("ﬁona") == "fiona")  // the fi ligature
        let composed = try RoomNaming.normalizedUserName("Zoe\u{308}")
        #expect(Array(composed.unicodeScalars) == Array("Zo\u{EB}".unicodeScalars))
        #expect(try RoomNaming.normalizedRoomName("ｌｏｂｂｙ") == "lobby")
        // NFKC first, then the rules: a fullwidth low line is an underscore
        #expect(throws: RoomError.self) { _ = try RoomNaming.normalizedUserName("a\u{FF3F}b") }
    }

    /// UTS #39 skeletons: the issue's look-alike, and the common Latin, Cyrillic and Greek ones.
    @Test(arguments: [
        ("alice", "\u{430}lice"),  // Cyrillic а
        ("alice", "al\u{456}ce"),  // Cyrillic і
        ("alice", "aIice"),  // capital I for l
        ("alice", "a1ice"),  // digit one for l
        ("alice", "ａｌｉｃｅ"),  // fullwidth (NFKC)
        ("paypal", "\u{440}\u{430}\u{443}\u{440}\u{430}l"),  // Cyrillic р, а, у
        ("bob", "b\u{3BF}b"),  // Greek omicron
        ("bob", "b\u{43E}b"),  // Cyrillic о
        ("BOB", "B0B"),  // digit zero for O
        ("moon", "rnoon"),  // r n for m
        ("Ann", "\u{391}nn"),  // Greek capital alpha
    ])
    func lookAlikesShareASkeleton(_ pair: (String, String)) {
        #expect(RoomNaming.skeleton(pair.0) == RoomNaming.skeleton(pair.1), "\(pair.0) vs \(pair.1.debugDescription)")
    }

    @Test func differentNamesKeepDifferentSkeletons() {
        #expect(RoomNaming.skeleton("alice") != RoomNaming.skeleton("alicia"))
        #expect(RoomNaming.skeleton("bob") != RoomNaming.skeleton("rob"))
        // Case is not folded (UTS #39 does not): Alice and alice are two names
        #expect(RoomNaming.skeleton("Alice") != RoomNaming.skeleton("alice"))
        // Spaces are: leading, trailing and repeated spaces do not make a new name
        #expect(RoomNaming.skeleton(" bob  smith ") == RoomNaming.skeleton("bob smith"))
        #expect(RoomNaming.skeleton("bob\u{2003}smith") == RoomNaming.skeleton("bob smith"))  // em space
    }

    @Test func theConfusableTableParsesAndIsStable() {
        let table = RoomNaming.confusables
        #expect(table.count > 500)
        #expect(table[0x430] == "a")
        // Prototypes are fixed points: mapping a prototype again changes nothing (UTS #39 §4)
        for prototype in Set(table.values) {
            #expect(RoomNaming.skeleton(prototype) == RoomNaming.skeleton(RoomNaming.skeleton(prototype)))
        }
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
