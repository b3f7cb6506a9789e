import Foundation

/// A `room-join --json` or `tree-join --json` line (Schemas/cli-events.schema.json) as tests compare it.
public enum CLIEventLine {
    /// `line` without its timestamp, when the line starts as every line must: `{"event":"…","time":"<RFC 3339 in UTC
    /// with milliseconds>"`. Any other line is returned unchanged, so that comparing it with an expected object fails.
    public static func withoutTime(_ line: String) -> String {
        line.replacingOccurrences(of: pattern, with: "$1", options: .regularExpression)
    }

    private static let pattern =
        #"^(\{"event":"[A-Za-z]+"),"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z""#
}
