/// An `a=simulcast:` attribute (RFC 8853 §5.1), also in the legacy draft-03 form (docs/sdp-jsep.md#real-world-sdp,
/// item 4).
///
/// RFC 8853: `a=simulcast:send 1,~4;2;3 recv c`. `;` separates streams, `,` separates alternatives within a
/// stream, `~` marks a paused rid. Draft-03 (still seen): `a=simulcast: send rid=1,4;2;3 paused=4 recv rid=c`.
public struct Simulcast: Hashable, Sendable, Codable {
    /// One rid in a stream's list of alternatives.
    public struct Alternative: Hashable, Sendable, Codable {
        /// The rid (matches an `a=rid` line).
        public var rid: String
        /// `true` when the rid is paused (`~` prefix, or listed in the draft's `paused=`).
        public var paused: Bool

        /// An alternative.
        public init(rid: String, paused: Bool = false) {
            self.rid = rid
            self.paused = paused
        }
    }

    /// Streams sent: each stream is a list of alternatives.
    public var send: [[Alternative]]
    /// Streams received.
    public var receive: [[Alternative]]

    /// A simulcast description.
    public init(send: [[Alternative]] = [], receive: [[Alternative]] = []) {
        self.send = send
        self.receive = receive
    }

    /// Parses either form; `nil` when no direction with a list is found.
    public init?(attributeValue: some StringProtocol) {
        var send: [[Alternative]] = []
        var receive: [[Alternative]] = []
        var current: SimulcastDirection?
        for token in attributeValue.split(separator: " ") {
            if let direction = SimulcastDirection(rawValue: String(token)) {
                current = direction
                continue
            }
            guard let direction = current else { return nil }
            if token.hasPrefix("paused=") {
                // Draft-03: the paused rids are listed separately; mark them in this direction's streams.
                let paused = Set(token.dropFirst(7).split(separator: ",").map { String($0) })
                func mark(_ streams: inout [[Alternative]]) {
                    streams = streams.map { $0.map { Alternative(rid: $0.rid, paused: $0.paused || paused.contains($0.rid)) } }
                }
                if direction == .send { mark(&send) } else { mark(&receive) }
                continue
            }
            let list = token.hasPrefix("rid=") ? token.dropFirst("rid=".count) : token
            let streams = list.split(separator: ";").map { stream in
                stream.split(separator: ",").map { alt in
                    alt.hasPrefix("~") ? Alternative(rid: String(alt.dropFirst()), paused: true) : Alternative(rid: String(alt))
                }
            }
            if direction == .send { send += streams } else { receive += streams }
        }
        guard !send.isEmpty || !receive.isEmpty else { return nil }
        self.init(send: send, receive: receive)
    }

    /// The attribute value in RFC 8853 form.
    public var attributeValue: String {
        func list(_ streams: [[Alternative]]) -> String {
            streams.map { $0.map { ($0.paused ? "~" : "") + $0.rid }.joined(separator: ",") }.joined(separator: ";")
        }
        var parts: [String] = []
        if !send.isEmpty { parts.append("send \(list(send))") }
        if !receive.isEmpty { parts.append("recv \(list(receive))") }
        return parts.joined(separator: " ")
    }
}
