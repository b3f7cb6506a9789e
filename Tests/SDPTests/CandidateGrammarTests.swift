import SDP
import Testing

/// RFC 8839 §5.1 + RFC 6544 candidate lines written for this suite (docs/sdp-jsep.md#candidate-grammar).
@Suite struct CandidateGrammarTests {
    /// Valid lines; each must parse strictly and serialize back to exactly the same text.
    static let valid: [String] = [
        "candidate:1 1 udp 2113929471 203.0.113.100 10100 typ host",
        "a=candidate:1 1 udp 2113929471 203.0.113.100 10100 typ host",
        "candidate:1 2 UDP 2113929470 203.0.113.100 10101 typ host",
        "candidate:842163049 1 udp 1677729535 198.51.100.7 46154 typ srflx raddr 10.0.0.5 rport 46154 generation 0 ufrag EsAw network-cost 999",
        "candidate:3 1 udp 1845501695 193.84.77.194 60017 typ prflx raddr 192.168.34.75 rport 60017",
        "candidate:4 1 udp 16777215 203.0.113.9 3478 typ relay raddr 198.51.100.7 rport 55000",
        "candidate:5 1 udp 2122262783 2001:db8::2 50001 typ host generation 0 network-id 2",
        "candidate:6 1 udp 2122262783 ::1 9 typ host",
        "candidate:7 1 udp 2122262783 fe80::1%eth0 40000 typ host",
        "candidate:8 1 udp 2122262783 fcd9:e3b8:12ce:9fc5:74a5:c6bb:d8b:e08a 53987 typ host",
        "candidate:9 1 udp 2122262783 ::ffff:192.0.2.1 5000 typ host",
        "candidate:1380287402 1 udp 2130706431 e2494022-4d9a-4c1e-a750-cc48d4f8d6ee.local 60542 typ host",
        "candidate:10 1 udp 1686052607 198.51.100.1 51000 typ srflx raddr 0.0.0.0 rport 0",
        "candidate:11 1 tcp 1518280447 192.0.2.3 9 typ host tcptype active",
        "candidate:12 1 TCP 2124414975 10.0.1.1 8998 typ host tcptype passive",
        "candidate:13 1 TCP 2120220671 10.0.1.1 8999 typ host tcptype so",
        "candidate:14 1 TCP 1684013055 192.0.2.3 45664 typ srflx raddr 10.0.1.1 rport 8998 tcptype passive generation 5",
        "candidate:15 1 tcp 1518280447 192.0.2.3 0 typ host generation 0 tcptype active",
        "candidate:abc+/XYZ 1 udp 1 192.0.2.1 1 typ host",
        "candidate:abcdefghijklmnopqrstuvwxyz012345 1 udp 2147483647 192.0.2.1 65535 typ host",
        "candidate:16 256 udp 100 192.0.2.1 5000 typ host",
        "candidate:17 1 dccp 100 192.0.2.1 5000 typ host",
        "candidate:18 1 udp 100 192.0.2.1 5000 typ x-future",
        "candidate:19 1 udp 100 redacted-ip.invalid 5000 typ host",
        "candidate:20 1 udp 100 turn.example.com 3478 typ host",
        "candidate:21 1 udp 100 192.0.2.1 5000 typ host x-unknown some/value~ok another 1",
        "candidate:22 1 udp 1686052607 198.51.100.1 51000 typ srflx raddr 2001:db8::5 rport 51000",
        "candidate:23 1 udp 100 192.0.2.1 5000 typ host raddr 192.0.2.1 rport 5000",
    ]

    /// Invalid lines and the phrase the strict parser's reason must contain.
    static let invalid: [(line: String, reason: String)] = [
        ("", "missing 'candidate:' prefix"),
        ("1 1 udp 100 192.0.2.1 5000 typ host", "missing 'candidate:' prefix"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ", "at least 8 fields"),
        ("candidate:1 1 udp 100 192.0.2.1 5000", "at least 8 fields"),
        ("candidate: 1 udp 100 192.0.2.1 5000 typ host", "empty field"),
        ("candidate:1  1 udp 100 192.0.2.1 5000 typ host", "empty field"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ host ", "empty field"),
        ("candidate:abcdefghijklmnopqrstuvwxyz0123456 1 udp 100 192.0.2.1 5000 typ host", "foundation"),
        ("candidate:fo_o 1 udp 100 192.0.2.1 5000 typ host", "foundation"),
        ("candidate:1 0 udp 100 192.0.2.1 5000 typ host", "component-id"),
        ("candidate:1 257 udp 100 192.0.2.1 5000 typ host", "component-id"),
        ("candidate:1 one udp 100 192.0.2.1 5000 typ host", "component-id"),
        ("candidate:1 1 u(dp 100 192.0.2.1 5000 typ host", "transport"),
        ("candidate:1 1 udp 0 192.0.2.1 5000 typ host", "priority"),
        ("candidate:1 1 udp 2147483648 192.0.2.1 5000 typ host", "priority"),
        ("candidate:1 1 udp 4294967296 192.0.2.1 5000 typ host", "priority"),
        ("candidate:1 1 udp -5 192.0.2.1 5000 typ host", "priority"),
        ("candidate:1 1 udp 100 256.0.2.1 5000 typ host", "connection-address"),
        ("candidate:1 1 udp 100 192.0.2 5000 typ host", "connection-address"),
        ("candidate:1 1 udp 100 2001:db8:::1 5000 typ host", "connection-address"),
        ("candidate:1 1 udp 100 1:2:3:4:5:6:7:8:9 5000 typ host", "connection-address"),
        ("candidate:1 1 udp 100 192.0.2.1? 5000 typ host", "connection-address"),
        ("candidate:1 1 udp 100 192.0.2.1 65536 typ host", "port"),
        ("candidate:1 1 udp 100 192.0.2.1 50x0 typ host", "port"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 type host", "expected 'typ'"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ ho@st", "candidate type"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ srflx", "without raddr and rport"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ relay raddr 10.0.0.1", "without raddr and rport"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ prflx rport 5000", "without raddr and rport"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ srflx raddr 10.0.0.1 rport 70000", "rport"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ srflx raddr not_an_ip rport 1", "raddr"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ host generation", "has no value"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ host generation 0 raddr 10.0.0.1", "must directly follow"),
        ("candidate:1 1 tcp 100 192.0.2.1 5000 typ host tcptype sometimes", "tcptype"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ host tcptype active", "non-TCP"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ host na(me 1", "extension name"),
        ("candidate:1 1 udp 100 192.0.2.1 5000 typ host ufrag a\u{7}b", "non-visible"),
    ]

    @Test func suiteHasAtLeastTwentyFiveLinesOfEachKind() {
        #expect(Self.valid.count >= 25)
        #expect(Self.invalid.count >= 25)
    }

    @Test(arguments: valid)
    func validLineParsesStrictlyAndSerializesBackUnchanged(line: String) throws {
        let candidate = try CandidateAttribute(parsing: line)
        let withoutPrefix = line.hasPrefix("a=") ? String(line.dropFirst(2)) : line
        #expect(candidate.description == withoutPrefix)
    }

    @Test(arguments: invalid)
    func invalidLineIsRejectedWithItsReason(line: String, reason: String) {
        #expect {
            try CandidateAttribute(parsing: line)
        } throws: { error in
            (error as? CandidateParseError)?.reason.contains(reason) == true
        }
    }

    @Test func fieldsOfAServerReflexiveCandidate() throws {
        let candidate = try CandidateAttribute(parsing: Self.valid[3])
        #expect(candidate.foundation == "842163049")
        #expect(candidate.componentID == 1)
        #expect(candidate.transportProtocol == "udp")
        #expect(candidate.priority == 1_677_729_535)
        #expect(candidate.address == "198.51.100.7")
        #expect(candidate.port == 46154)
        #expect(candidate.type == .srflx)
        #expect(candidate.relatedAddress == "10.0.0.5")
        #expect(candidate.relatedPort == 46154)
        #expect(candidate.generation == 0)
        #expect(candidate.usernameFragment == "EsAw")
        #expect(candidate.networkCost == 999)
        #expect(candidate.extensions.map(\.name) == ["generation", "ufrag", "network-cost"])
    }

    @Test func addressKindsAreRecognised() throws {
        let kinds = try [Self.valid[0], Self.valid[6], Self.valid[8], Self.valid[11], Self.valid[24]]
            .map { try CandidateAttribute(parsing: $0).addressKind }
        #expect(kinds == [.ipv4, .ipv6, .ipv6, .mdns, .fqdn])
        #expect(try CandidateAttribute(parsing: Self.valid[11]).isMDNS)
    }

    @Test func tcpTypeIsReadFromItsExtensionPairWhereverItAppears() throws {
        #expect(try CandidateAttribute(parsing: Self.valid[13]).tcpType == .active)
        #expect(try CandidateAttribute(parsing: Self.valid[17]).tcpType == .active)
        #expect(try CandidateAttribute(parsing: Self.valid[17]).generation == 0)
    }

    @Test func lenientModeAcceptsWhatBrowsersAndLibrariesTolerate() throws {
        let bare = try CandidateAttribute(parsing: "1 1 udp 100 192.0.2.1 5000 typ host", mode: .lenient)
        #expect(bare.foundation == "1")
        let emptyFoundation = try CandidateAttribute(parsing: "candidate: 1 udp 100 192.0.2.1 5000 typ host", mode: .lenient)
        #expect(emptyFoundation.foundation == "")
        #expect(emptyFoundation.componentID == 1)
        let noRelated = try CandidateAttribute(parsing: "candidate:1 1 udp 100 192.0.2.1 5000 typ srflx", mode: .lenient)
        #expect(noRelated.relatedAddress == nil)
    }

    @Test func builtCandidateSerializesInGrammarOrder() {
        let candidate = CandidateAttribute(
            foundation: "7", transport: "tcp", priority: 1_518_280_447, address: "192.0.2.3", port: 9, type: .host,
            extensions: [.init(name: "tcptype", value: "active"), .init(name: "generation", value: "0")])
        #expect(candidate.description == "candidate:7 1 tcp 1518280447 192.0.2.3 9 typ host tcptype active generation 0")
    }
}
