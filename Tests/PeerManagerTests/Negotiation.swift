import PeerManager
import SDP
import Testing

/// Descriptions and helpers shared by the PeerManager tests.
enum Negotiation {
    static func offer(ufrag: String = "offr", lite: Bool = false) -> String {
        """
        v=0
        o=- 1 1 IN IP4 0.0.0.0
        s=-
        t=0 0
        \(lite ? "a=ice-lite\n" : "")a=group:BUNDLE 0 1
        m=audio 9 UDP/TLS/RTP/SAVPF 111
        c=IN IP4 0.0.0.0
        a=mid:0
        a=ice-ufrag:\(ufrag)
        a=ice-pwd:offerpasswordofferpassword
        a=fingerprint:sha-256 AB:CD
        a=setup:actpass
        a=sendrecv
        a=rtcp-mux
        a=rtpmap:111 opus/48000/2
        m=video 9 UDP/TLS/RTP/SAVPF 96
        c=IN IP4 0.0.0.0
        a=mid:1
        a=ice-ufrag:\(ufrag)
        a=ice-pwd:offerpasswordofferpassword
        a=fingerprint:sha-256 AB:CD
        a=setup:actpass
        a=sendrecv
        a=rtcp-mux
        a=rtpmap:96 VP8/90000

        """
    }

    static func answer(ufrag: String = "answ") -> String {
        offer(ufrag: ufrag).replacing("actpass", with: "active").replacing("o=- 1 1", with: "o=- 2 1")
    }

    static var offerModel: SessionDescription { try! SessionDescription(parsing: offer(ufrag: "locl")) }
    static var answerModel: SessionDescription { try! SessionDescription(parsing: answer(ufrag: "locl")) }

    /// A connection driven into `state` through legal calls.
    static func connection(in state: SignalingState, policy: PeerConnection.GlarePolicy = .implicitRollback) throws -> PeerConnection {
        var pc = PeerConnection(configuration: .init(glarePolicy: policy))
        switch state {
        case .stable:
            break
        case .haveLocalOffer:
            _ = try pc.createOffer(offerModel)
            _ = try pc.setLocalDescription(.offer)
        case .haveRemoteOffer:
            _ = try pc.setRemoteDescription(.offer, sdp: offer())
        case .haveLocalPranswer:
            _ = try pc.setRemoteDescription(.offer, sdp: offer())
            _ = try pc.createAnswer(answerModel)
            _ = try pc.setLocalDescription(.pranswer)
        case .haveRemotePranswer:
            _ = try pc.createOffer(offerModel)
            _ = try pc.setLocalDescription(.offer)
            _ = try pc.setRemoteDescription(.pranswer, sdp: answer())
        case .closed:
            pc.close()
        }
        #expect(pc.signalingState == state)
        return pc
    }

    /// Performs one call of the transition table, preparing a created offer or answer when the state
    /// allows it, as an application would.
    static func perform(_ side: DescriptionSide, _ type: DescriptionType, on pc: inout PeerConnection) throws(PeerConnectionError) -> [PeerConnectionEvent] {
        switch (side, type) {
        case (.local, .offer):
            _ = try? pc.createOffer(offerModel)
            return try pc.setLocalDescription(.offer)
        case (.local, .pranswer), (.local, .answer):
            _ = try? pc.createAnswer(answerModel)
            return try pc.setLocalDescription(type)
        case (.local, .rollback):
            return try pc.setLocalDescription(.rollback)
        case (.remote, .offer):
            return try pc.setRemoteDescription(.offer, sdp: offer(ufrag: "rof2"))
        case (.remote, _):
            return try pc.setRemoteDescription(type, sdp: answer())
        }
    }
}
