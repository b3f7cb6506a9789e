import CMallocCounter
import Foundation
import PeerManager
import SDP
import SignalingSupport

/// SDP parse and serialize throughput and allocations, for `make bench` (row 4 of its table).
///
/// Usage: `SDPThroughput [--json] [OFFER_FILE] [CORPUS_DIR]` or `SDPThroughput --profile-parse N`
/// - OFFER_FILE defaults to the Chrome-shaped 5.5 KB offer of the SDP tests; when it cannot be read, an offer made
///   by our own ``PeerManager/OfferBuilder`` stands in (and the output says so).
/// - CORPUS_DIR (default `$KS_FIXTURES` or `../shared/fixtures` next to the repository) adds a row over every
///   `.sdp` file below it that parses; skipped when absent.
///
/// Rates are medians of 5 timed runs; allocations are malloc-family calls counted by `CMallocCounter`.
@main
enum SDPThroughput {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let json = arguments.contains("--json")
        arguments.removeAll { $0 == "--json" }
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../..").standardizedFileURL
        let positional = arguments.first?.hasPrefix("--") == true ? [] : arguments
        let offerPath = positional.first ?? repository.appendingPathComponent("Tests/SDPTests/Fixtures/chrome-offer.sdp").path
        let corpusPath = positional.count > 1 ? positional[1]
            : ProcessInfo.processInfo.environment["KS_FIXTURES"]
            ?? repository.appendingPathComponent("../shared/fixtures").standardizedFileURL.path

        var rows: [[String: Any]] = []
        let (offer, source) = loadOffer(offerPath)
        if let flag = arguments.firstIndex(of: "--profile-parse") {
            // A fixed amount of parsing and nothing else, for instruction counts that compare across runs:
            //   valgrind --tool=callgrind SDPThroughput --profile-parse 200
            let count = arguments.count > flag + 1 ? Int(arguments[flag + 1]) ?? 200 : 200
            var sink = 0
            for _ in 0..<count { sink &+= try SessionDescription(parsing: offer).media.count }
            print("parsed \(count) times (\(sink / max(count, 1)) sections)")
            return
        }
        rows.append(try measure(name: "offer", source: source, texts: [offer]))
        let corpus = loadCorpus(corpusPath)
        if !corpus.isEmpty {
            rows.append(try measure(name: "corpus", source: "\(corpusPath) (\(corpus.count) files)", texts: corpus))
        }
        if json {
            let data = try JSONSerialization.data(withJSONObject: ["sdp": rows], options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            for row in rows { print(row.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")) }
        }
    }

    static func loadOffer(_ path: String) -> (String, String) {
        if let data = FileManager.default.contents(atPath: path) { return (String(decoding: data, as: UTF8.self), path) }
        var generator = SeededRandomNumberGenerator(seed: 9)
        var configuration = MediaConfiguration.audioVideo()
        configuration.dataChannel = true
        let offer = OfferBuilder.offer(
            for: configuration, credentials: .random(using: &generator), fingerprint: .randomSHA256(using: &generator),
            sessionID: generator.next())
        return (offer.serialized(), "OfferBuilder fallback (\(path) not found)")
    }

    /// Every `.sdp` file below `path` that parses (some of the corpus is deliberately invalid).
    static func loadCorpus(_ path: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: path) else { return [] }
        var texts: [String] = []
        for case let file as String in walker where file.hasSuffix(".sdp") {
            guard let data = FileManager.default.contents(atPath: path + "/" + file) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if (try? SessionDescription(parsing: text)) != nil { texts.append(text) }
        }
        return texts.sorted()
    }

    static func measure(name: String, source: String, texts: [String]) throws -> [String: Any] {
        let bytes = texts.reduce(0) { $0 + $1.utf8.count }
        let parsed = try texts.map { try SessionDescription(parsing: $0) }
        var sink = 0
        // Allocations: one pass after a warm-up pass, divided by the number of descriptions.
        for text in texts { sink &+= try SessionDescription(parsing: text).media.count }
        var before = malloc_counter_allocations()
        for text in texts { sink &+= try SessionDescription(parsing: text).media.count }
        let parseAllocations = Double(malloc_counter_allocations() - before) / Double(texts.count)
        before = malloc_counter_allocations()
        for description in parsed { sink &+= description.serialized().utf8.count }
        let serializeAllocations = Double(malloc_counter_allocations() - before) / Double(texts.count)

        let parseRate = try rate(bytes: bytes) { for text in texts { sink &+= try SessionDescription(parsing: text).media.count } }
        let serializeRate = try rate(bytes: bytes) { for description in parsed { sink &+= description.serialized().utf8.count } }
        if sink == 42 { print("") }  // keeps the work observable
        return [
            "name": name, "source": source, "bytes": bytes / texts.count, "descriptions": texts.count,
            "parse_mb_s": round1(parseRate), "serialize_mb_s": round1(serializeRate),
            "parse_allocations": round1(parseAllocations), "serialize_allocations": round1(serializeAllocations),
            "parse_us": round1(Double(bytes) / Double(texts.count) / parseRate),
        ]
    }

    /// MB/s of `body` (which processes `bytes` bytes): the median of 5 runs of about 0.25 s each.
    static func rate(bytes: Int, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        var iterations = 1
        while true {  // calibrate to about 50 ms
            let elapsed = try seconds(clock.measure { for _ in 0..<iterations { try body() } })
            if elapsed > 0.05 { iterations = max(1, Int(Double(iterations) * 0.25 / elapsed)); break }
            iterations *= 2
        }
        var runs: [Double] = []
        for _ in 0..<5 {
            let elapsed = try seconds(clock.measure { for _ in 0..<iterations { try body() } })
            runs.append(Double(bytes * iterations) / elapsed / 1_000_000)
        }
        return runs.sorted()[2]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
