/// RTP payload types and the attributes keyed by them: rtpmap, fmtp, rtcp-fb (RFC 8866 §6.6, §6.15,
/// RFC 4585 §4.2).
extension MediaDescription {
    /// A codec as signaled: the format number with its rtpmap, fmtp and per-PT feedback.
    public struct Codec: Hashable, Sendable, Codable {
        /// The payload type.
        public var payloadType: Int
        /// The rtpmap; `nil` for a static payload type without one (`0`, `8`, …).
        public var rtpMap: RTPMap?
        /// The fmtp parameters, when given.
        public var parameters: String?
        /// The `a=rtcp-fb` lines for this payload type (the wildcard `*` lines are in
        /// ``MediaDescription/rtcpFeedback``).
        public var feedback: [RTCPFeedback]
    }

    /// The RTP payload types of the `m=` line, in preference order. Empty for non-RTP protos, whose formats
    /// are tokens (`webrtc-datachannel`) or, in the legacy `DTLS/SCTP 5000` form, a port
    /// (docs/sdp-jsep.md#real-world-sdp, item 8).
    public var payloadTypes: [Int] {
        guard proto.contains("RTP") else { return [] }
        return formats.compactMap { SDPGrammar.decimal($0, as: Int.self) }
    }

    /// Every `a=rtpmap`, in order.
    public var rtpMaps: [RTPMap] { attributeValues(named: "rtpmap").compactMap(RTPMap.init(attributeValue:)) }

    /// Every `a=fmtp`, in order.
    public var formatParameters: [FormatParameters] {
        attributeValues(named: "fmtp").compactMap(FormatParameters.init(attributeValue:))
    }

    /// Every `a=rtcp-fb`, in order, including wildcard lines.
    public var rtcpFeedback: [RTCPFeedback] {
        attributeValues(named: "rtcp-fb").compactMap(RTCPFeedback.init(attributeValue:))
    }

    /// The rtpmap of `payloadType`.
    public func rtpMap(for payloadType: Int) -> RTPMap? { rtpMaps.first { $0.payloadType == payloadType } }

    /// The fmtp of `payloadType`.
    public func formatParameters(for payloadType: Int) -> FormatParameters? {
        formatParameters.first { $0.payloadType == payloadType }
    }

    /// The rtcp-fb lines for `payloadType`, without the wildcard ones.
    public func rtcpFeedback(for payloadType: Int) -> [RTCPFeedback] {
        rtcpFeedback.filter { $0.payloadType == payloadType }
    }

    /// The codecs in `m=` order, each with its rtpmap, fmtp and feedback.
    public var codecs: [Codec] {
        let maps = rtpMaps, fmtps = formatParameters, feedback = rtcpFeedback
        return payloadTypes.map { pt in
            Codec(
                payloadType: pt, rtpMap: maps.first { $0.payloadType == pt },
                parameters: fmtps.first { $0.payloadType == pt }?.parameters,
                feedback: feedback.filter { $0.payloadType == pt })
        }
    }

    /// The RTX payload types whose `apt=` points at `payloadType` (RFC 4588 §8.6).
    public func retransmissionPayloadTypes(for payloadType: Int) -> [Int] {
        formatParameters.compactMap { fmtp in
            fmtp.value(for: "apt").flatMap { Int($0) } == payloadType ? fmtp.payloadType : nil
        }
    }

    /// Drops `payloadType` from the `m=` line together with its rtpmap, fmtp and rtcp-fb lines, and — so
    /// that no dangling RTX remains (RFC 4588 §8.6) — the RTX payload types associated with it.
    ///
    /// RFC 3264 §6 still requires one format on the `m=` line; dropping the last one is the caller's
    /// responsibility (reject the section with port 0 instead).
    public mutating func removeCodec(payloadType: Int) {
        let doomed = Set([payloadType] + retransmissionPayloadTypes(for: payloadType))
        formats.removeAll { SDPGrammar.decimal($0, as: Int.self).map(doomed.contains) ?? false }
        lines.removeAll { line in
            for name in ["rtpmap", "fmtp", "rtcp-fb"] {
                if let value = line.attributeValue(ifNamed: name), let (pt, _) = PayloadTyped.split(value),
                    let number = Int(pt), doomed.contains(number)
                {
                    return true
                }
            }
            return false
        }
    }

    /// Appends a codec: its payload type on the `m=` line, then rtpmap, fmtp and rtcp-fb lines.
    public mutating func addCodec(_ rtpMap: RTPMap, parameters: String? = nil, feedback: [RTCPFeedback] = []) {
        formats.append(String(rtpMap.payloadType))
        appendAttribute(SDPAttribute(name: "rtpmap", value: rtpMap.attributeValue))
        if let parameters {
            appendAttribute(SDPAttribute(name: "fmtp", value: "\(rtpMap.payloadType) \(parameters)"))
        }
        for item in feedback { appendAttribute(SDPAttribute(name: "rtcp-fb", value: item.attributeValue)) }
    }
}
