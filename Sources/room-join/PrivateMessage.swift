import ArgumentParser

/// A `--private USER:TEXT` option: the text goes to USER only.
struct PrivateMessage: ExpressibleByArgument {
    var user: String
    var text: String

    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":"), colon != argument.startIndex else { return nil }
        user = String(argument[..<colon])
        text = String(argument[argument.index(after: colon)...])
    }
}
