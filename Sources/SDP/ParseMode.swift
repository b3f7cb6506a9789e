/// How forgiving the parsers are.
///
/// - ``strict`` (the default) rejects a description or candidate that breaks the grammar: an unknown line
///   type letter (RFC 8866 §5 allows "reject"), a malformed `v=`, `o=`, `c=`, `b=`, `t=`, `m=` or
///   `a=rtcp` line, an unknown address type, a session-only line inside a media section, a missing `v=`,
///   `o=` or `s=`, and any `a=candidate` line that breaks RFC 8839 §5.1. Line *order* is not enforced beyond
///   "`v=` first, `m=` starts a section": real-world SDP routinely puts `t=` before `c=`
///   (docs/sdp-jsep.md#sdp-grammar).
/// - ``lenient`` never rejects a description because of a single line, except a malformed `m=` line (the
///   section structure depends on it). Unknown type letters and malformed lines are kept verbatim, so they
///   still round-trip; lines without `=` are dropped. Every problem is reported as a warning instead. For
///   candidates it also accepts a missing `candidate:` prefix, an empty foundation, a priority of 0, missing
///   `raddr`/`rport` on srflx, prflx and relay candidates, and any `tcptype` value (docs/sdp-jsep.md#trickle-json).
public enum ParseMode: Hashable, Sendable {
    /// Reject anything that breaks the grammar (default).
    case strict
    /// Keep going, report problems as warnings.
    case lenient
}
