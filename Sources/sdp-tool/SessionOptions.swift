import ArgumentParser
import Foundation
import PeerManager
import SDP
import SignalingSupport

/// `--previous-offer FILE --previous-answer FILE`: the exchange in force before a renegotiation, shared by `offer`
/// and `answer`. Which side each file belongs to depends on the verb (see its help).
struct PreviousExchange: ParsableArguments {
    @Option(help: ArgumentHelp("The previous exchange's offer (with --previous-answer).", valueName: "file"))
    var previousOffer: String?

    @Option(help: ArgumentHelp("The previous exchange's answer (with --previous-offer).", valueName: "file"))
    var previousAnswer: String?

    /// Whether both files were given.
    var isGiven: Bool { previousOffer != nil }

    func validate() throws {
        if (previousOffer == nil) != (previousAnswer == nil) {
            throw ValidationError("--previous-offer and --previous-answer go together")
        }
    }

    /// The previous offer and answer, parsed; `nil` when they were not given.
    func descriptions() throws -> (offer: SessionDescription, answer: SessionDescription)? {
        guard let previousOffer, let previousAnswer else { return nil }
        return (try InputReader.parse(previousOffer), try InputReader.parse(previousAnswer))
    }
}

/// `--direction MID=DIR` (repeatable), shared by `offer` and `answer`.
struct DirectionOptions: ParsableArguments {
    @Option(
        name: .customLong("direction"),
        help: ArgumentHelp("A direction for the section with this mid (repeatable), e.g. --direction 1=inactive.",
                           valueName: "mid=dir"),
        transform: DirectionOptions.parse)
    var assignments: [Assignment] = []

    /// The directions by mid; a mid given twice takes its last value.
    var byMid: [String: MediaDirection] {
        Dictionary(assignments.map { ($0.mid, $0.direction) }) { _, last in last }
    }

    /// One `MID=DIR`.
    struct Assignment {
        /// The section's mid.
        var mid: String
        /// Its direction.
        var direction: MediaDirection
    }

    /// Parses `MID=DIR`.
    static func parse(_ argument: String) throws -> Assignment {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw ValidationError("expected MID=DIR, e.g. 1=inactive")
        }
        guard let direction = MediaDirection(rawValue: String(parts[1])) else {
            throw ValidationError("'\(parts[1])' is not a direction; use one of \(directionNames)")
        }
        return Assignment(mid: String(parts[0]), direction: direction)
    }

    static let directionNames = MediaDirection.allCases.map(\.rawValue).joined(separator: ", ")
}

/// `--seed N` and `--json`, and printing the description a verb makes.
struct OutputOptions: ParsableArguments {
    @Option(help: "Seed for credentials, fingerprint, session id and sources (reproducible output).")
    var seed: UInt64?

    @Flag(help: "Print the description's typed accessors as JSON (the inspect --json shape).")
    var json = false

    /// Prints `description` as SDP with CRLF line ends, or as JSON with --json.
    func print(_ description: SessionDescription) throws {
        if json {
            try Inspect.printJSON(SDPSummary(description))
        } else {
            Swift.print(description.serialized(normalizingToCRLF: true), terminator: "")
        }
    }
}

/// A verb that makes one session description from random values. The generator is a concrete type (seeded or the
/// system's), never `any RandomNumberGenerator`: see ``LocalSession`` on Swift 6.3's IR generation.
protocol DescriptionMaking {
    /// The description, drawing every random value from `generator`.
    func make(using generator: inout some RandomNumberGenerator) throws -> SessionDescription
}

extension DescriptionMaking {
    /// The description, from a ``SeededRandomNumberGenerator`` when `seed` is given, the system generator otherwise.
    func make(seed: UInt64?) throws -> SessionDescription {
        if let seed {
            var generator = SeededRandomNumberGenerator(seed: seed)
            return try make(using: &generator)
        }
        var generator = SystemRandomNumberGenerator()
        return try make(using: &generator)
    }
}
