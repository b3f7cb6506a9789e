import ArgumentParser
import CLISupport
import Foundation
import JSONRPC
import JSONRPCWebSocket
import RoomProtocol
import SDP
import TreeClient

/// Why the stay ended.
enum Stop: Sendable {
    case duration
    /// SIGINT or SIGTERM.
    case signal(Int32)
    case connectionEnded(String)
}

/// A step that failed: what to print and the exit code.
struct Failure: Error {
    var message: String
    var code: Int32
}

/// What has been set up, so that the clean-up undoes exactly that.
struct Setup {
    var tree: String?
    var created = false
    var source: TreeParty?
    var sinks: [(party: TreeParty, id: String)] = []
    var parties: [TreeParty] = []
}

extension TreeJoin {
    var output: Output { Output(tool: "tree-join", json: json) }

    func run() async throws {
        let (stops, stop) = AsyncStream<Stop>.makeStream()
        // SIGTERM as SIGINT: the tree is released before the exit (a second signal exits at once).
        let sources = ExitSignals.catching { stop.yield(.signal($0)) }
        defer { for source in sources { source.cancel() } }

        var setup = Setup(tree: tree)
        let reason: String, code: Int32
        do {
            try await setUp(&setup, stop)
            if let duration {
                Task {
                    try? await Task.sleep(for: .milliseconds(Int(duration * 1000)))
                    stop.yield(.duration)
                }
            }
            switch await stops.first(where: { _ in true }) {
            case .duration?, nil: (reason, code) = ("duration", 0)
            case .signal(let number)?: (reason, code) = ("interrupted", ExitSignals.exitCode(for: number))
            case .connectionEnded(let message)?:
                output.error(message)
                (reason, code) = ("disconnected", 5)
            }
        } catch let failure as Failure {
            output.error(failure.message)
            (reason, code) = ("error", failure.code)
        }
        await cleanUp(setup)
        output.report(.done(reason: reason, tree: setup.tree))
        if code != 0 { throw ExitCode(code) }
    }

    /// Creates the tree and sets its source (unless `--viewer`), then attaches the sinks.
    private func setUp(_ setup: inout Setup, _ stop: AsyncStream<Stop>.Continuation) async throws {
        func party(_ name: String) -> TreeParty {
            let configuration = connection.clientConfiguration(tool: "tree-join")
            let party = TreeParty(url: url, name: name, configuration: configuration, output: output) {
                stop.yield(.connectionEnded($0))
            }
            setup.parties.append(party)
            return party
        }
        if !viewer {
            let source = party("source")
            try await connect(source)
            let id = try await step("create the tree") { try await source.client.createTree(id: tree) }
            setup.tree = id
            setup.created = true
            output.report(.created(id))
            try await step("set the source") {
                try await source.negotiate(.sendonly, port: 40000, tree: id, endpoint: { _ in .source }) { offer in
                    ((), try await source.client.setSource(sdpOffer: offer, tree: id))
                }
            }
            setup.source = source
            output.report(.source(id, state: await source.signalingState, port: 40000))
        }
        guard let id = setup.tree else { return }
        for number in stride(from: 1, through: sinks, by: 1) {
            let viewer = party("sink \(number)")
            try await connect(viewer)
            let port = 40000 + number
            let sink = try await step("attach sink \(number)") {
                try await viewer.negotiate(.recvonly, port: port, tree: id, endpoint: { .sink($0.id) }) { offer in
                    let sink = try await viewer.client.addSink(sdpOffer: offer, tree: id)
                    return (sink, sink.sdpAnswer)
                }
            }
            setup.sinks.append((viewer, sink.id))
            output.report(.sink(sink.id, tree: id, number: number, of: sinks, state: await viewer.signalingState,
                                port: port))
        }
    }

    /// Removes the sinks, then the source, then releases the tree: whatever was set up. A failure is reported and
    /// the clean-up goes on.
    private func cleanUp(_ setup: Setup) async {
        if let id = setup.tree {
            for (party, sinkId) in setup.sinks {
                if await attempt("remove sink \(sinkId)", { try await party.client.removeSink(sinkId, tree: id) }) {
                    output.report(.sinkRemoved(sinkId, tree: id))
                }
            }
            if let source = setup.source,
               await attempt("remove the source", { try await source.client.removeSource(tree: id) }) {
                output.report(.sourceRemoved(id))
            }
            if setup.created, let owner = setup.parties.first,
               await attempt("release the tree", { try await owner.client.releaseTree(id) }) {
                output.report(.released(id))
            }
        }
        for party in setup.parties { await party.stop() }
    }

    /// Connects `party`; a URL that serves another service (Room) ends the run with exit 3, in words.
    private func connect(_ party: TreeParty) async throws {
        do {
            try await party.client.connect()
        } catch let error as RPCError where error.isAuthorizationRefusal {
            // The server refused the token (HTTP 401/403, close 4401/4403): final, nothing dials again.
            throw Failure(message: "cannot connect to \(url): \(Problem.describe(error))", code: 4)
        } catch {
            throw Failure(message: "cannot connect to \(url): \(Problem.connectFailure(error, url: url))", code: 3)
        }
        let description = await ServerProbe.describe(party.client.jsonRPCClient, stockKurento: connection.stockKurento)
        if let service = description.service, service != "tree" {
            throw Failure(message: "cannot use \(url): \(Problem.wrongService(service, expected: "tree"))", code: 3)
        }
    }

    /// Runs one step; a Tree refusal exits 4 (its code printed), anything else 5.
    private func step<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as TreeError {
            throw Failure(message: "cannot \(what): refused, \(error)", code: 4)
        } catch let error as RPCError where error.isAuthorizationRefusal {
            throw Failure(message: "cannot \(what): \(Problem.describe(error))", code: 4)
        } catch {
            throw Failure(message: "cannot \(what): \(Problem.describe(error))", code: 5)
        }
    }

    /// Runs one clean-up call; returns whether it succeeded (a failure is reported).
    private func attempt(_ what: String, _ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            return true
        } catch {
            output.error("cannot \(what): \(Problem.describe(error))")
            return false
        }
    }
}
