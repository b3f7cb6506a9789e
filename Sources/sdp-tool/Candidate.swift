import ArgumentParser
import SDP

/// `sdp-tool candidate 'candidate:…'`.
struct Candidate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse one ICE candidate line (RFC 8839 §5.1) and explain its fields.",
        discussion: "Accepts 'candidate:…' and 'a=candidate:…'. An invalid line exits with status 1 and the reason."
    )

    @Argument(help: "The candidate line, quoted.")
    var line: String

    @Flag(help: "Also accept a missing 'candidate:' prefix, an empty foundation and missing raddr/rport.")
    var lenient = false

    func run() throws {
        let candidate: CandidateAttribute
        do {
            candidate = try CandidateAttribute(parsing: line, mode: lenient ? .lenient : .strict)
        } catch {
            InputReader.fail("invalid candidate: \(error.reason)")
        }
        print(Self.explain(candidate), terminator: "")
    }

    static func explain(_ candidate: CandidateAttribute) -> String {
        var rows: [(String, String)] = [
            ("foundation", candidate.foundation),
            ("component", "\(candidate.componentID)" + (candidate.componentID == 1 ? " (RTP)" : candidate.componentID == 2 ? " (RTCP)" : "")),
            ("transport", candidate.transportProtocol),
            ("priority", "\(candidate.priority) (type preference \(candidate.priority >> 24), local preference \((candidate.priority >> 8) & 0xFFFF))"),
            ("address", "\(candidate.address) (\(candidate.addressKind?.rawValue ?? "unrecognised"))"),
            ("port", "\(candidate.port)"),
            ("type", candidate.type.rawValue),
        ]
        if let address = candidate.relatedAddress { rows.append(("related address", address)) }
        if let port = candidate.relatedPort { rows.append(("related port", "\(port)")) }
        if let tcpType = candidate.tcpType { rows.append(("tcptype", tcpType.rawValue)) }
        for pair in candidate.extensions where pair.name != "tcptype" { rows.append(("extension \(pair.name)", pair.value)) }
        if candidate.isMDNS { rows.append(("note", "mDNS name: resolve it with multicast DNS or discard it (RFC 8828)")) }
        if candidate.addressKind == .fqdn { rows.append(("note", "FQDN address: RFC 8839 says agents must not send these")) }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 + "\n" }.joined()
    }
}
