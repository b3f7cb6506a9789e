/// Values of a media section with session-level defaults applied (RFC 8866 §5: media-level attributes
/// override session-level ones; aiortc and Firefox put ICE and DTLS parameters at session level).
extension SessionDescription {
    /// The direction of section `index`: its own, else the session's, else sendrecv (RFC 3264 §6).
    public func effectiveDirection(ofMediaAt index: Int) -> MediaDirection {
        media[index].direction ?? direction ?? .sendrecv
    }

    /// The ICE ufrag of section `index`, falling back to the session level.
    public func effectiveIceUfrag(ofMediaAt index: Int) -> String? { media[index].iceUfrag ?? iceUfrag }

    /// The ICE password of section `index`, falling back to the session level.
    public func effectiveIcePwd(ofMediaAt index: Int) -> String? { media[index].icePwd ?? icePwd }

    /// The ICE options of section `index`, falling back to the session level.
    public func effectiveIceOptions(ofMediaAt index: Int) -> [String] {
        let own = media[index].iceOptions
        return own.isEmpty ? iceOptions : own
    }

    /// The fingerprints of section `index`, falling back to the session level.
    public func effectiveFingerprints(ofMediaAt index: Int) -> [Fingerprint] {
        let own = media[index].fingerprints
        return own.isEmpty ? fingerprints : own
    }

    /// The setup role of section `index`, falling back to the session level.
    public func effectiveSetup(ofMediaAt index: Int) -> SetupRole? { media[index].setup ?? setup }

    /// The connection of section `index`, falling back to the session level.
    public func effectiveConnection(ofMediaAt index: Int) -> Connection? { media[index].connection ?? connection }

    /// Whether no more candidates come for section `index`: its own flag or the session-level one (RFC 8840).
    public func effectiveEndOfCandidates(ofMediaAt index: Int) -> Bool {
        media[index].endOfCandidates || endOfCandidates
    }
}
