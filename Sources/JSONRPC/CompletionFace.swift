/// Runs `body` in a new task and hands its outcome to `completion`, exactly once: the completion-closure face of
/// an async call (docs/architecture.md#callbacks), shared by every client that has one. `completion` runs on no
/// particular thread.
package func complete<T: Sendable>(_ completion: @escaping @Sendable (Result<T, any Error>) -> Void,
                                   with body: @escaping @Sendable () async throws -> T) {
    Task {
        do { completion(.success(try await body())) } catch { completion(.failure(error)) }
    }
}
