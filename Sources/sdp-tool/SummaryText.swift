import SDP

/// The readable form of an ``SDPSummary``: one block per media section.
enum SummaryText {
    static func render(_ summary: SDPSummary) -> String {
        var out = ""
        func line(_ text: String, indent: Int = 0) { out += String(repeating: "  ", count: indent) + text + "\n" }
        if let origin = summary.origin {
            line("session \(origin.sessionID) v\(origin.sessionVersion) from \(origin.username) (\(origin.addrType) \(origin.address))")
        }
        if let name = summary.sessionName { line("name: \(name.isEmpty ? "(empty)" : name)") }
        if summary.iceLite { line("ice-lite") }
        for group in summary.groups { line("group \(group.semantics): \(group.mids.joined(separator: " "))") }
        for bandwidth in summary.bandwidths { line("bandwidth \(bandwidth.type):\(bandwidth.value)") }
        for media in summary.media {
            var flags: [String] = []
            if media.rejected { flags.append("rejected") }
            if media.bundleOnly { flags.append("bundle-only") }
            if media.rtcpMux { flags.append("rtcp-mux") }
            let flagText = flags.isEmpty ? "" : " [\(flags.joined(separator: ", "))]"
            line("")
            line("m[\(media.index)] \(media.kind) mid=\(media.mid ?? "-") \(media.direction.rawValue) port \(media.port) \(media.proto)\(flagText)")
            if !media.codecs.isEmpty {
                line("codecs:", indent: 1)
                for codec in media.codecs {
                    var text = "\(codec.payloadType)"
                    if let map = codec.rtpMap {
                        text += " \(map.encodingName)"
                        if let clock = map.clockRate { text += "/\(clock)" }
                        if let channels = map.channels { text += "/\(channels)" }
                    }
                    if let parameters = codec.parameters { text += " (\(parameters))" }
                    if !codec.feedback.isEmpty {
                        text += " fb: " + codec.feedback.map { [$0.type, $0.parameter].compactMap { $0 }.joined(separator: " ") }.joined(separator: ", ")
                    }
                    line(text, indent: 2)
                }
            } else {
                line("formats: \(media.formats.joined(separator: " "))", indent: 1)
            }
            if let ufrag = media.iceUfrag { line("ice: ufrag \(ufrag) pwd \(media.icePwd ?? "-")" + (media.iceOptions.isEmpty ? "" : " options \(media.iceOptions.joined(separator: ","))"), indent: 1) }
            for fingerprint in media.fingerprints { line("fingerprint \(fingerprint.hashFunction) \(fingerprint.value)", indent: 1) }
            if let setup = media.setup { line("setup \(setup.rawValue)", indent: 1) }
            if let port = media.sctpPort { line("sctp-port \(port)" + (media.maxMessageSize.map { " max-message-size \($0)" } ?? ""), indent: 1) }
            for msid in media.msids { line("msid \(msid.attributeValue)", indent: 1) }
            if !media.ssrcs.isEmpty { line("ssrcs \(media.ssrcs.map(String.init).joined(separator: " "))", indent: 1) }
            for group in media.ssrcGroups { line("ssrc-group \(group.attributeValue)", indent: 1) }
            for rid in media.rids { line("rid \(rid.attributeValue)", indent: 1) }
            for simulcast in media.simulcast { line("simulcast \(simulcast.attributeValue)", indent: 1) }
            if !media.candidates.isEmpty || media.endOfCandidates {
                line("candidates (\(media.candidates.count))\(media.endOfCandidates ? ", end-of-candidates" : ""):", indent: 1)
                for candidate in media.candidates { line(candidate, indent: 2) }
            }
        }
        return out
    }
}
