import Foundation

extension RoomNaming {
    /// The confusable skeleton of a name (Unicode Technical Standard #39, "Unicode Security Mechanisms", §4,
    /// https://www.unicode.org/reports/tr39/#Confusable_Detection): two names with one skeleton look alike, such as
    /// `alice`, `аlice` (Cyrillic а), `aIice` (capital I) and `a1ice`. A server keeps the skeletons of a room's
    /// members unique, so a look-alike of a member gets 104 (docs/wire-protocol.md#room-naming).
    ///
    /// As UTS #39 defines it: the NFD form, each character replaced by its prototype, NFD again; here on the NFKC
    /// form of the name (``normalized(_:)``), and with runs of spaces made one and spaces at either end dropped, so
    /// that `bob ` and `bob  smith` are not new names either. Case is kept, as UTS #39 keeps it: `Alice` and
    /// `alice` are two names. The prototypes come from `confusableTable` (ConfusableTable.swift), which covers the Latin, Greek, Cyrillic,
    /// Armenian and Cherokee blocks, the phonetic extensions, general punctuation and letterlike symbols, not every
    /// script of confusables.txt.
    public static func skeleton(_ name: String) -> String {
        let ascii = name.utf8.allSatisfy { $0 < 0x80 }
        let decomposed = ascii ? name : normalized(name).decomposedStringWithCanonicalMapping
        var mapped = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars {
            if let prototype = confusables[scalar.value] {
                mapped.append(contentsOf: prototype.unicodeScalars)
            } else {
                mapped.append(scalar)
            }
        }
        let prototypes = String(mapped)
        let folded = ascii ? prototypes : prototypes.decomposedStringWithCanonicalMapping
        return folded.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// ``confusableTable``, parsed once: code point → prototype.
    static let confusables: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for line in confusableTable.split(separator: "\n") {
            let points = line.split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            guard let source = points.first else { continue }
            var prototype = String.UnicodeScalarView()
            prototype.append(contentsOf: points.dropFirst())
            table[source.value] = String(prototype)
        }
        return table
    }()
}
