import Foundation

/// Latency samples in microseconds.
struct Samples {
    var values: [Double] = []

    mutating func add(_ duration: Duration) { values.append(microseconds(duration)) }

    /// The nearest-rank percentile `p` (0...100); 0 when empty.
    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

func seconds(_ duration: Duration) -> Double { microseconds(duration) / 1e6 }

func round1(_ value: Double) -> Double { (value * 10).rounded() / 10 }

/// `/proc/<pid>` readings of another process (or this one, with pid 0 meaning "self").
enum ProcessStats {
    /// Resident set size in KiB (VmRSS).
    static func residentKiB(_ pid: Int32) -> Int {
        let path = pid == 0 ? "/proc/self/status" : "/proc/\(pid)/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
        }
        return 0
    }

    /// User plus system CPU time in seconds.
    static func cpuSeconds(_ pid: Int32) -> Double {
        let path = pid == 0 ? "/proc/self/stat" : "/proc/\(pid)/stat"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
