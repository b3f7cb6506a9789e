/// The params of the server's `customRequest`: `{"name": "ada"}`.
public struct Hello: Codable, Sendable {
    public var name: String
    public init(name: String) { self.name = name }
}

/// Its answer: `{"text": "hello, ada", "count": 1}`, `count` being how many greetings the server has made.
public struct Greeting: Codable, Sendable {
    public var text: String
    public var count: Int
    public init(text: String, count: Int) {
        self.text = text
        self.count = count
    }
}

/// The notification the server sends the caller before it answers: `greeted {"name": "ada"}`.
public struct Greeted: Codable, Sendable {
    public static let method = "greeted"
    public var name: String
    public init(name: String) { self.name = name }
}
