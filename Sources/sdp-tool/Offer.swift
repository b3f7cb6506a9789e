import ArgumentParser
import PeerManager
import SDP

/// `sdp-tool offer [--audio DIR|none] [--video DIR|none] [--data] [--previous-offer FILE --previous-answer FILE]
/// [--direction MID=DIR]... [--ice-restart] [--seed N] [--json]`.
struct Offer: ParsableCommand, DescriptionMaking {
    static let configuration = CommandConfiguration(
        abstract: "Print an offer: an initial one, or a subsequent one for the exchange in force.",
        discussion: """
            Without --previous-offer/--previous-answer: an initial offer with an audio section (opus) and a video \
            section (VP8, H264), both sendrecv unless --audio/--video say otherwise ('none' leaves the section \
            out), and a data channel section with --data.

            With them (this tool made the previous offer, the peer the previous answer): a subsequent offer that \
            keeps every m-line, mid and order (sections rejected by either side stay at port 0), the credentials \
            (new ones with --ice-restart), fingerprint, sources and o= session id, with a higher o= version. There \
            --audio/--video/--data change only what they name: --audio DIR sets the direction of the first \
            accepted audio section, or adds one when there is none; --audio none stops that section (port 0 from \
            now on); likewise --video; --data adds a data channel section when there is none. Kinds not named \
            stay as they are (a data channel is never stopped).

            --direction MID=DIR sets the direction of one section by mid and wins over --audio/--video.
            """
    )

    /// `--audio`/`--video`: a direction, or `none`.
    enum Section: ExpressibleByArgument {
        case none
        case direction(MediaDirection)

        init?(argument: String) {
            if argument == "none" {
                self = .none
            } else if let direction = MediaDirection(rawValue: argument) {
                self = .direction(direction)
            } else {
                return nil
            }
        }

        static var allValueStrings: [String] { MediaDirection.allCases.map(\.rawValue) + ["none"] }

        /// The direction, `nil` for `none`.
        var direction: MediaDirection? {
            if case .direction(let direction) = self { return direction }
            return nil
        }
    }

    @Option(help: ArgumentHelp("The audio section's direction, or 'none' (default sendrecv).", valueName: "dir|none"))
    var audio: Section?

    @Option(help: ArgumentHelp("The video section's direction, or 'none' (default sendrecv).", valueName: "dir|none"))
    var video: Section?

    @Flag(help: "Offer a data channel section (SCTP over DTLS).")
    var data = false

    @OptionGroup var previous: PreviousExchange

    @OptionGroup var directions: DirectionOptions

    @Flag(help: "Restart ICE: new credentials (a subsequent offer only).")
    var iceRestart = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if iceRestart, !previous.isGiven {
            throw ValidationError("--ice-restart needs --previous-offer and --previous-answer")
        }
    }

    func run() throws {
        try output.print(try make(seed: output.seed))
    }

    func make(using generator: inout some RandomNumberGenerator) throws -> SessionDescription {
        guard let previousExchange = try previous.descriptions() else {
            var session = LocalSession(fingerprint: nil, using: &generator)
            session.directions = directions.byMid
            let media = MediaConfiguration(
                audio: Self.rtpSection(audio?.direction ?? (audio == nil ? .sendrecv : nil), codecs: [.opus]),
                video: Self.rtpSection(video?.direction ?? (video == nil ? .sendrecv : nil), codecs: [.vp8, .h264]),
                dataChannel: data)
            return session.offer(for: media, using: &generator)
        }
        let (local, remote) = (previousExchange.offer, previousExchange.answer)
        var session = LocalSession(resuming: local, using: &generator)
        session.iceRestartRequested = iceRestart
        session.directions = directions.byMid
        var changes = changes(against: local, remote: remote)
        changes.directions.merge(directions.byMid) { _, asked in asked }
        return session.subsequentOffer(local: local, remote: remote, changes: changes, using: &generator)
    }

    /// The changes --audio, --video and --data ask of the session in force: ``OfferBuilder/Changes/init(_:against:remote:)``
    /// over a configuration in which the kinds not named keep their current state. A section the peer rejected
    /// counts as not accepted, so naming its kind adds a new section.
    func changes(against local: SessionDescription, remote: SessionDescription) -> OfferBuilder.Changes {
        func current(_ kind: String) -> MediaDirection? {
            local.media.indices.first { index in
                local.media[index].kind == kind && OfferBuilder.isInForce(ofMediaAt: index, local: local, remote: remote)
            }.map { local.effectiveDirection(ofMediaAt: $0) }
        }
        let media = MediaConfiguration(
            audio: Self.rtpSection(audio.map(\.direction) ?? current("audio"), codecs: [.opus]),
            video: Self.rtpSection(video.map(\.direction) ?? current("video"), codecs: [.vp8, .h264]),
            dataChannel: data || current("application") != nil)
        return OfferBuilder.Changes(media, against: local, remote: remote)
    }

    /// An RTP section with `direction`, or none.
    static func rtpSection(_ direction: MediaDirection?, codecs: [MediaConfiguration.Codec]) -> MediaConfiguration.RTPSection? {
        direction.map { MediaConfiguration.RTPSection(direction: $0, codecs: codecs, bandwidthKbps: nil) }
    }
}
