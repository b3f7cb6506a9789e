import SDP
import Testing

/// Accessor values pinned by hand for corpus files (read from the files, not from our parser's output).
/// Per-section arrays are indexed by m-line.
struct CorpusPin: Sendable, CustomTestStringConvertible {
    var file: String
    var mids: [String?]
    var directions: [MediaDirection]
    var payloadTypes: [[Int]]
    var ufrags: [String?]
    var fingerprints: [String?]
    var candidateCounts: [Int]
    var firstCandidate: String? = nil
    var groups: [String] = []
    var iceLite = false

    var testDescription: String { file }

    /// Checks the typed accessors of `description` (with session-level fallbacks).
    func expect(matches description: SessionDescription) {
        let indices = description.media.indices
        #expect(description.media.map(\.mid) == mids, "\(file) mids")
        #expect(indices.map(description.effectiveDirection(ofMediaAt:)) == directions, "\(file) directions")
        #expect(description.media.map(\.payloadTypes) == payloadTypes, "\(file) payload types")
        #expect(indices.map(description.effectiveIceUfrag(ofMediaAt:)) == ufrags, "\(file) ufrags")
        #expect(indices.map { description.effectiveFingerprints(ofMediaAt: $0).first?.value } == fingerprints, "\(file) fingerprints")
        #expect(description.media.map(\.candidates.count) == candidateCounts, "\(file) candidates")
        if let firstCandidate {
            #expect(description.media.first?.candidates.first?.description == firstCandidate, "\(file) first candidate")
        }
        #expect(description.groups.map(\.attributeValue) == groups, "\(file) groups")
        #expect(description.iceLite == iceLite, "\(file) ice-lite")
    }

    /// Checks the same values in an `sdp-tool inspect --json` summary.
    func expect(matches summary: SDPSummary) {
        #expect(summary.media.map(\.mid) == mids, "\(file) mids")
        #expect(summary.media.map(\.direction) == directions, "\(file) directions")
        #expect(summary.media.map { $0.codecs.map(\.payloadType) } == payloadTypes, "\(file) payload types")
        #expect(summary.media.map(\.iceUfrag) == ufrags, "\(file) ufrags")
        #expect(summary.media.map { $0.fingerprints.first?.value } == fingerprints, "\(file) fingerprints")
        #expect(summary.media.map(\.candidates.count) == candidateCounts, "\(file) candidates")
        if let firstCandidate { #expect(summary.media.first?.candidates.first == firstCandidate, "\(file) first candidate") }
        #expect(summary.groups.map(\.attributeValue) == groups, "\(file) groups")
        #expect(summary.iceLite == iceLite, "\(file) ice-lite")
    }

    static let jsepFingerprint = "19:E2:1C:3B:4B:9F:81:E6:B8:5C:F4:A5:A8:D8:73:04:BB:05:2F:70:9F:04:A9:0E:05:E9:26:33:E8:70:88:A2"

    static let all: [CorpusPin] = [
        CorpusPin(
            file: "jsep.sdp", mids: ["a1", "v1"], directions: [.sendrecv, .sendrecv],
            payloadTypes: [[96, 0, 8, 97, 98], [100, 101]], ufrags: ["ETEn1v9DoTMB9J4r", "BGKkWnG5GmiUpdIV"],
            fingerprints: [jsepFingerprint, jsepFingerprint], candidateCounts: [2, 0],
            firstCandidate: "candidate:3348148302 1 udp 2113937151 192.0.2.1 56500 typ host", groups: ["BUNDLE a1 v1"]),
        CorpusPin(
            file: "normal.sdp", mids: [nil, nil], directions: [.sendrecv, .sendrecv], payloadTypes: [[0, 96], [97, 98]],
            ufrags: ["F7gI", "F7gI"],
            fingerprints: Array(repeating: "42:89:c5:c6:55:9d:6e:c8:e8:83:55:2a:39:f9:b6:eb:e9:a3:a9:e7", count: 2),
            candidateCounts: [4, 4], firstCandidate: "candidate:0 1 UDP 2113667327 203.0.113.1 54400 typ host"),
        CorpusPin(
            file: "hacky.sdp", mids: ["audio", "video", "33db2c4da91d73fd"], directions: [.sendrecv, .sendrecv, .sendrecv],
            payloadTypes: [[111, 103, 104, 0, 8, 107, 106, 105, 13, 126], [100, 116, 117], []],
            ufrags: ["lat6xwB1/flm+VwG", "lat6xwB1/flm+VwG", "pDUB98Lc+2dc5+JF"],
            fingerprints: [nil, nil, "F0:37:78:FE:3D:13:E9:10:B5:0C:4C:9E:48:37:E7:A0:F8:16:DC:1A:2C:69:67:B0:DF:E6:CB:73:F8:EF:BA:02"],
            candidateCounts: [8, 0, 0],
            firstCandidate: "candidate:1127303604 1 udp 2122260223 0.0.0.0 60672 typ host generation 0",
            groups: ["BUNDLE audio video"]),
        CorpusPin(
            file: "icelite.sdp", mids: [nil], directions: [.sendrecv], payloadTypes: [[8, 0, 101]], ufrags: ["nXET"],
            fingerprints: ["CE:17:02:86:E2:E8:B0:EF:F9:F3:3F:82:8A:A6:F0:EF:30:73:1D:5D:B3:5A:60:D7:AC:FE:F0:E3:DF:D5:D9:7B"],
            candidateCounts: [2], firstCandidate: "candidate:X 1 UDP 659136 192.168.100.100 10018 typ host", iceLite: true),
        CorpusPin(
            file: "sctp-dtls-26.sdp", mids: ["data"], directions: [.sendrecv], payloadTypes: [[]], ufrags: ["8qF7"],
            fingerprints: ["10:8E:F5:D7:A2:B3:63:EF:BD:64:8C:5F:56:A0:66:05:9F:B1:5C:1A:C5:79:BD:EE:90:92:C4:1A:C4:B7:1F:58"],
            candidateCounts: [0], groups: ["BUNDLE data"]),
        CorpusPin(
            file: "jssip.sdp", mids: ["audio"], directions: [.sendrecv], payloadTypes: [[111, 103, 104, 0, 8, 106, 105, 13, 126]],
            ufrags: ["5I2uVefP13X1wzOY"],
            fingerprints: ["79:14:AB:AB:93:7F:07:E8:91:1A:11:16:36:D0:11:66:C4:4F:31:A0:74:46:65:58:70:E5:09:95:48:F4:4B:D9"],
            candidateCounts: [6],
            firstCandidate: "candidate:1162875081 1 udp 2113937151 192.168.34.75 60017 typ host generation 0",
            groups: ["BUNDLE audio"]),
        CorpusPin(
            file: "ssrc.sdp", mids: ["audio", "video"], directions: [.sendrecv, .sendrecv],
            payloadTypes: [[111, 103, 104, 9, 0, 8, 106, 105, 13, 110, 112, 113, 126], [96, 98, 100, 102, 127, 125, 97, 99, 101, 124]],
            ufrags: ["ez5G", "ez5G"],
            fingerprints: Array(repeating: "D2:FA:0E:C3:22:59:5E:14:95:69:92:3D:13:B4:84:24:2C:C2:A2:C0:3E:FD:34:8E:5E:EA:6F:AF:52:CE:E6:0F", count: 2),
            candidateCounts: [0, 0], groups: ["BUNDLE audio video"]),
        CorpusPin(
            file: "onvif.sdp", mids: [nil, nil, nil], directions: [.sendrecv, .sendrecv, .recvonly],
            payloadTypes: [[0], [26], [107]], ufrags: [nil, nil, nil], fingerprints: [nil, nil, nil],
            candidateCounts: [0, 0, 0]),
        CorpusPin(
            file: "simulcast.sdp", mids: [nil, nil], directions: [.sendrecv, .sendrecv], payloadTypes: [[0], [97, 98, 99, 100]],
            ufrags: [nil, nil], fingerprints: [nil, nil], candidateCounts: [0, 0]),
        CorpusPin(
            file: "dante-aes67.sdp", mids: [nil], directions: [.recvonly], payloadTypes: [[97]], ufrags: [nil],
            fingerprints: [nil], candidateCounts: [0]),
    ]
}
