extension SessionDescription {
    /// A mid that more than one m-line carries. RFC 5888 §4 makes an identification-tag unique within a
    /// description: BUNDLE, candidates and `a=mid` answers name a section by it, so a repeated one names two.
    public struct DuplicateMid: Hashable, Sendable, CustomStringConvertible {
        /// The mid.
        public var mid: String
        /// The indices of the m-lines that carry it, in order (two or more).
        public var mLines: [Int]

        /// A duplicate mid.
        public init(mid: String, mLines: [Int]) {
            self.mid = mid
            self.mLines = mLines
        }

        /// `mid '0' is used by m-lines 0 and 1`.
        public var description: String {
            let lines = mLines.map(String.init)
            return "mid '\(mid)' is used by m-lines \(lines.dropLast().joined(separator: ", ")) and \(lines.last ?? "")"
        }
    }

    /// The mids that more than one m-line carries, in the order of their first m-line; empty when every mid is
    /// unique (sections without a mid are not counted).
    public var duplicateMids: [DuplicateMid] {
        var lines: [String: [Int]] = [:], order: [String] = []
        for (index, section) in media.enumerated() {
            guard let mid = section.mid else { continue }
            if lines[mid] == nil { order.append(mid) }
            lines[mid, default: []].append(index)
        }
        return order.compactMap { mid in
            guard let indices = lines[mid], indices.count > 1 else { return nil }
            return DuplicateMid(mid: mid, mLines: indices)
        }
    }
}
