import CLISupport
import ArgumentParser
import JSONRPC
import RoomClient
import SharedObjects

/// Connects the `--shared-object` objects through the room client's own session (so `room:R/…` objects of the
/// joined room are allowed) and prints their events until cancelled.
struct SharedObjectWatch {
    let shared: SharedObjectClient
    let objects: [SharedObject]
    let printer: Task<Void, Never>

    /// Connects every object of `options`; `nil` when there is none. A refusal is an error (exit 5).
    static func start(_ options: SharedObjectOptions, client: RoomClient, output: Output) async throws -> SharedObjectWatch? {
        guard !options.names.isEmpty else { return nil }
        let shared = SharedObjectClient(client: client.jsonRPCClient)
        let objects = options.names.map { shared.object($0) }
        // Subscribed before connecting, so the first `connected` of each is printed too.
        let streams = objects.map { ($0.name, $0.events) }
        let roomEvents = client.events
        let printer = Task {
            await withTaskGroup(of: Void.self) { group in
                // After a rejoin (reported by the room client only), room:R/… objects re-sync too.
                group.addTask {
                    do {
                        for try await event in roomEvents {
                            if case .connectionStateChanged(let state) = event, "\(state)" == "rejoined" {
                                await shared.resyncAll()
                            }
                        }
                    } catch {
                        // The room's events ended: room-join is ending too.
                    }
                }
                for (name, events) in streams {
                    group.addTask {
                        do {
                            for try await event in events { output.report(Report(event, of: name)) }
                        } catch {
                            output.error("shared object \(name): \(Problem.describe(error))")
                        }
                    }
                }
            }
        }
        for object in objects {
            do {
                try await object.connect(persistent: options.persistent)
            } catch {
                printer.cancel()
                output.error("cannot connect to shared object \(object.name): \(Problem.describe(error))")
                throw ExitCode(5)
            }
        }
        return SharedObjectWatch(shared: shared, objects: objects, printer: printer)
    }

    func stop() { printer.cancel() }
}

extension Report {
    /// The report of one shared-object event (`Schemas/cli-events.schema.json`: sharedObject…).
    init(_ event: SharedObjectEvent, of name: String) {
        switch event {
        case .connected(let state):
            self.init(event: "sharedObjectConnected",
                      fields: ["name": .string(name), "version": .int(state.version), "persistent": .bool(state.persistent),
                               "data": .object(state.data)],
                      text: "shared object \(name) at version \(state.version): \(JSONValue.object(state.data).jsonText)")
        case .updated(let update):
            let changes = update.changed.keys.sorted().map { key in
                update.changed[key] == .null ? "\(key) removed" : "\(key) = \(update.changed[key]?.jsonText ?? "")"
            }
            var fields: [String: JSONValue] = ["name": .string(name), "version": .int(update.version),
                                               "changed": .object(update.changed)]
            fields["sender"] = update.sender?.json
            self.init(event: "sharedObjectUpdate", fields: fields,
                      text: "shared object \(name) version \(update.version)\(Self.by(update.sender)): "
                          + changes.joined(separator: ", "))
        case .message(let method, let params, let sender):
            var fields: [String: JSONValue] = ["name": .string(name), "method": .string(method), "params": params ?? .null]
            fields["sender"] = sender?.json
            self.init(event: "sharedObjectMessage", fields: fields,
                      text: "shared object \(name) message \(method)\(Self.by(sender)): \(params?.jsonText ?? "-")")
        case .closed(let reason):
            self.init(event: "sharedObjectClosed", fields: ["name": .string(name), "reason": .string(reason)],
                      text: "shared object \(name) closed: \(reason)")
        }
    }
}

extension Report {
    /// ` by alice`, ` by anonymous 3f9a…`, or nothing when the server did not say who.
    static func by(_ sender: SharedObjectSender?) -> String {
        switch sender {
        case .user(let user, _)?: " by \(user)"
        case .anonymous(let id)?: " by anonymous \(id)"
        case nil: ""
        }
    }
}

extension SharedObjectWatch {
    /// Interactive mode's `/set KEY VALUE`: sets KEY on the first `--shared-object`; VALUE is parsed as JSON, else
    /// taken as a string (`/set color red`, `/set size 3`, `/set tags ["a"]`, `/set color null` removes). Returns
    /// whether `line` was a `/set` command. The change is printed like every other, from the server's update.
    func perform(_ line: String, _ output: Output) async -> Bool {
        guard let command = Self.setCommand(line) else { return false }
        guard let (key, value) = command else {
            output.error("usage: /set KEY VALUE (VALUE is JSON, or else a string)")
            return true
        }
        guard let object = objects.first else {
            output.error(RoomJoin.setNeedsSharedObject)
            return true
        }
        do {
            try await object.setProperty(key, value)
        } catch {
            output.error("cannot set \(key) on shared object \(object.name): \(Problem.describe(error))")
        }
        return true
    }

    /// `nil` when `line` is not `/set`; `.some(nil)` for a `/set` without key and value.
    static func setCommand(_ line: String) -> (key: String, value: JSONValue)?? {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard words.first == "/set" else { return nil }
        guard words.count == 3 else { return .some(nil) }
        let text = String(words[2])
        return (String(words[1]), (try? JSONValue(parsing: text)) ?? .string(text))
    }
}
