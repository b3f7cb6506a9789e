import SDP

/// What `sdp-tool inspect` reports about a description that parses but would trip a peer: a mid on more than one
/// m-line (RFC 5888 §4), an `a=rtpmap` without a clock rate (RFC 8866 §6.6), ICE credentials of an illegal length
/// (RFC 8839 §5.4: ufrag 4–256, pwd 22–256 characters). Warnings, or errors with `--strict`.
enum Lint {
    /// The findings, one sentence each: the repeated mids first, then the session level, then each m-line.
    static func findings(in description: SessionDescription) -> [String] {
        var found = description.duplicateMids.map(sentence)
        found += credentials(of: description, where: "session")
        for (index, section) in description.media.enumerated() {
            let place = "m-line \(index)"
            found += credentials(of: section, where: place)
            for map in section.rtpMaps where map.clockRate == nil {
                found.append("\(place): a=rtpmap:\(map.attributeValue) has no clock rate (RFC 8866 §6.6: <encoding name>/<clock rate>)")
            }
        }
        return found
    }

    /// The sentence for a repeated mid, shared with `sdp-tool answer`'s refusal.
    static func sentence(_ duplicate: SessionDescription.DuplicateMid) -> String {
        "\(duplicate) (RFC 5888: a mid names one m-line)"
    }

    /// The ice-ufrag and ice-pwd of one level that are too short or too long.
    private static func credentials(of level: some SDPLineContainer, where place: String) -> [String] {
        var found: [String] = []
        for (name, value, range) in [("ice-ufrag", level.iceUfrag, 4...256), ("ice-pwd", level.icePwd, 22...256)] {
            guard let value, !range.contains(value.count) else { continue }
            found.append("\(place): a=\(name) is \(value.count) characters; RFC 8839 §5.4 asks for \(range.lowerBound) to \(range.upperBound)")
        }
        return found
    }
}
