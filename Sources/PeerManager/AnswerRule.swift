/// The offer/answer rules ``AnswerChecker`` enforces (RFC 3264 §6, RFC 9143 §7, RFC 5763 §5, RFC 8839,
/// RFC 8841; docs/sdp-jsep.md#offer-and-answer).
public enum AnswerRule: String, Hashable, Sendable, Codable, CaseIterable {
    /// RFC 3264 §6: exactly the offer's number of m-lines.
    case mLineCount = "m-line-count"
    /// RFC 3264 §6: the same media type per m-line.
    case mediaType = "media-type"
    /// RFC 3264 §6: the same transport protocol per m-line.
    case proto
    /// RFC 3264 §6: the t= line equals the offer's.
    case timing = "t-line"
    /// RFC 5888 / JSEP: each offered a=mid is echoed unchanged.
    case midEcho = "mid-echo"
    /// RFC 5888 §4: a mid names one m-line, in the offer and in the answer (an answer that echoes the offer's
    /// repeated mid is reported once, for the offer).
    case uniqueMid = "unique-mid"
    /// RFC 3264 §6: a stream rejected in the offer stays rejected.
    case rejectedStaysRejected = "rejected-stays-rejected"
    /// RFC 3264 §6.1: only offered payload types, with the offer's codec for each dynamic number.
    case codecSubset = "codec-subset"
    /// RFC 3264 §6.1 / JSEP: every dynamic payload type has an a=rtpmap.
    case rtpmapForDynamic = "rtpmap-for-dynamic"
    /// RFC 3264 §6.1: the direction is allowed for the offered one.
    case direction
    /// RFC 5888 §9.2: only offered group semantics appear.
    case groupOffered = "group-offered"
    /// RFC 9143 §7.3: bundled mids were bundled in the offer and are not rejected.
    case bundleSubset = "bundle-subset"
    /// RFC 5763 §5: setup is active or passive, and the opposite of a non-actpass offer; in a renegotiation (given the
    /// current descriptions) an answer to actpass keeps the DTLS role in force unless its certificate changes
    /// (RFC 8842 §5.3).
    case setup
    /// RFC 8839 §5.4: ice-ufrag 4–256 and ice-pwd 22–256 ice-chars in accepted sections.
    case iceCredentials = "ice-credentials"
    /// RFC 8122: at least one fingerprint for accepted DTLS sections.
    case fingerprint
    /// RFC 5761 / JSEP: rtcp-mux answered when offered.
    case rtcpMux = "rtcp-mux"
    /// RFC 8841: an accepted data-channel section has a=sctp-port (or legacy sctpmap).
    case sctpPort = "sctp-port"
    /// RFC 8285 §5: only offered header extensions, with the offered ids.
    case extmapSubset = "extmap-subset"
    /// RFC 3264 §6: a stream with no format in common with the offer (one the answerer does not support) is
    /// rejected with port 0. (A stream the offer rejected is ``rejectedStaysRejected``.)
    case unsupportedRejected = "unsupported-rejected"
    /// RFC 8839 §4.4.1.1 / JSEP §5.3.1, in a renegotiation: an offer with new ice-ufrag/ice-pwd restarts ICE, and
    /// its answer carries new ones too; an answer to an offer that does not restart keeps its current ones.
    /// Checked only when ``AnswerChecker`` is given the current descriptions.
    case iceRestart = "ice-restart"
}

/// One broken rule, where and why.
public struct AnswerViolation: Hashable, Sendable, CustomStringConvertible {
    /// The rule.
    public var rule: AnswerRule
    /// The m-line index, or `nil` for a session-level problem.
    public var mLine: Int?
    /// Details.
    public var message: String

    /// A violation.
    public init(rule: AnswerRule, mLine: Int? = nil, message: String) {
        self.rule = rule
        self.mLine = mLine
        self.message = message
    }

    /// `rule [m-line N]: message`.
    public var description: String {
        "\(rule.rawValue)" + (mLine.map { " [m-line \($0)]" } ?? "") + ": \(message)"
    }
}
