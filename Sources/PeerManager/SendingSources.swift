public import SDP

/// What identifies the media one side of a connection sends: one MediaStream, one track per sending m-line, and the
/// RTP sources of each track (docs/sdp-jsep.md#sending-sections).
///
/// Every sending section of an offer or answer carries `a=msid:<stream> <track>` (RFC 8830, JSEP §5.2.1) and its
/// SSRCs with `a=ssrc:<ssrc> cname:<cname>` (RFC 5576, RFC 7022), plus `a=ssrc-group:FID <primary> <rtx>` where the
/// section carries RTX (RFC 4588). A browser needs them to put the track it receives into a stream
/// (`RTCTrackEvent.streams`, which KurentoRoom.js reads as `getRemoteStreams()[0]`). The values are drawn once per
/// m-line (by mid) and kept for the life of the connection, so a renegotiation names the same stream, tracks and
/// sources.
public struct SendingSources: Hashable, Sendable {
    /// The sources of one sending m-line.
    public struct Track: Hashable, Sendable {
        /// The track id (the msid "appdata").
        public var trackID: String
        /// The primary SSRC.
        public var ssrc: UInt32
        /// The SSRC of the RTX stream, drawn the first time the section carries RTX.
        public var rtxSSRC: UInt32?

        /// A track.
        public init(trackID: String, ssrc: UInt32, rtxSSRC: UInt32? = nil) {
            self.trackID = trackID
            self.ssrc = ssrc
            self.rtxSSRC = rtxSSRC
        }
    }

    /// The RTCP canonical name shared by every source of the connection (RFC 7022: 16 random characters).
    public var cname: String
    /// The MediaStream id shared by every sending section.
    public var streamID: String
    /// The tracks by mid.
    public var tracks: [String: Track]

    /// Sources with the given names.
    public init(cname: String, streamID: String, tracks: [String: Track] = [:]) {
        self.cname = cname
        self.streamID = streamID
        self.tracks = tracks
    }

    /// A fresh cname and stream id drawn from `generator`.
    public init(using generator: inout some RandomNumberGenerator) {
        self.init(cname: Self.randomAlphanumerics(16, using: &generator),
                  streamID: Self.randomAlphanumerics(16, using: &generator))
    }

    /// The sources a previous local description announced (its first cname and msid, each section's track and SSRCs),
    /// so that a stateless caller (`sdp-tool`) keeps them in the next description; `nil` when it announced none.
    public init?(announcedIn description: SessionDescription) {
        var tracks: [String: Track] = [:]
        var cname: String?, streamID: String?
        for section in description.media {
            guard let mid = section.mid, let msid = section.msids.first, let ssrc = section.ssrcs.first else { continue }
            cname = cname ?? section.ssrcAttributes.first { $0.name == "cname" }?.value
            streamID = streamID ?? msid.streamID
            let rtx = section.ssrcGroups.first { $0.semantics == "FID" && $0.ssrcs.first == ssrc }?.ssrcs.dropFirst().first
            tracks[mid] = Track(trackID: msid.trackID ?? "track-\(mid)", ssrc: ssrc, rtxSSRC: rtx)
        }
        guard let cname, let streamID else { return nil }
        self.init(cname: cname, streamID: streamID, tracks: tracks)
    }

    /// Writes the msid and SSRC lines of every accepted RTP section of `description` that sends, drawing the track of a
    /// mid seen for the first time; removes any such lines from sections that do not send.
    public mutating func annotate(_ description: inout SessionDescription, using generator: inout some RandomNumberGenerator) {
        for index in description.media.indices {
            var section = description.media[index]
            section.msids = []
            section.ssrcAttributes = []
            section.ssrcGroups = []
            if let mid = section.mid, section.port != 0 || section.isBundleOnly, section.proto.contains("RTP"),
               description.effectiveDirection(ofMediaAt: index).sends
            {
                let hasRTX = section.rtpMaps.contains { $0.encodingName.lowercased() == "rtx" }
                let track = track(for: mid, withRTX: hasRTX, using: &generator)
                section.msids = [MediaStreamID(streamID: streamID, trackID: track.trackID)]
                let sources = [track.ssrc] + (hasRTX ? track.rtxSSRC.map { [$0] } ?? [] : [])
                if sources.count == 2 { section.ssrcGroups = [SSRCGroup(semantics: "FID", ssrcs: sources)] }
                section.ssrcAttributes = sources.flatMap { ssrc in
                    [SSRCAttribute(ssrc: ssrc, name: "cname", value: cname),
                     SSRCAttribute(ssrc: ssrc, name: "msid", value: "\(streamID) \(track.trackID)")]
                }
            }
            description.media[index] = section
        }
    }

    /// The track of `mid`, drawn (and an RTX SSRC added) when missing.
    mutating func track(for mid: String, withRTX: Bool, using generator: inout some RandomNumberGenerator) -> Track {
        var track = tracks[mid] ?? Track(
            trackID: Self.randomAlphanumerics(16, using: &generator),
            ssrc: freshSSRC(using: &generator))
        if withRTX, track.rtxSSRC == nil {
            tracks[mid] = track  // so that the RTX SSRC differs from a primary drawn just now
            track.rtxSSRC = freshSSRC(using: &generator)
        }
        tracks[mid] = track
        return track
    }

    /// An SSRC not yet used by any track of this connection (RFC 3550 §8: unique within the session).
    func freshSSRC(using generator: inout some RandomNumberGenerator) -> UInt32 {
        let used = Set(tracks.values.flatMap { [$0.ssrc] + ($0.rtxSSRC.map { [$0] } ?? []) })
        while true {
            let ssrc = UInt32.random(in: 1...UInt32.max, using: &generator)
            if !used.contains(ssrc) { return ssrc }
        }
    }

    static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

    /// `count` letters and digits: legal in an msid id (RFC 8830 token) and a cname alike.
    static func randomAlphanumerics(_ count: Int, using generator: inout some RandomNumberGenerator) -> String {
        String((0..<count).map { _ in alphanumerics[Int.random(in: 0..<alphanumerics.count, using: &generator)] })
    }
}
