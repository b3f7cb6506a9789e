/// What a ``RoomServer`` knows of one tree (``RoomServer/trees``): whether its source is set and its sinks.
public struct TreeState: Sendable, Hashable {
    /// Whether the source is set (its answer was given).
    public var hasSource: Bool
    /// The ids of the sinks whose answer was given, in the order they were added.
    public var sinks: [String]

    /// Creates a tree state.
    public init(hasSource: Bool, sinks: [String]) {
        self.hasSource = hasSource
        self.sinks = sinks
    }
}
