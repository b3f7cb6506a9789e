import JSONRPCWebSocket
import Testing

/// The JSON-RPC library example of docs/examples.md ("Using the libraries", once the README's), kept compiling and true.
@Suite struct ReadmeExampleTests {
    @Test func readmeJSONRPCExampleWorksAsWritten() async throws {
        let server = JSONRPCServer(configuration: .init(conventions: .plain))
        server.registerSpecificationExamples()
        let listener = try await server.listen(on: WebSocketServerConfiguration())
        let client = JSONRPCClient(url: listener.url)
        try await client.connect()
        let sum = try await client.call("sum", params: [1, 2, 4])
        #expect(sum == 7)
        await client.close(code: 1000, reason: "")
        await listener.shutdown()
    }
}
