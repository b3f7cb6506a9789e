import JSONRPC
import SignalingSupport
import TestSupport
import Testing

/// `claimNotifications(inNamespace:by:_:)`: a layer that owns a namespace of notifications (`sharedObject.*`) gets
/// them alone; the catch-all observers (`observeNotifications(_:)`, under RoomClient and TreeClient) get the rest.
@Suite struct NotificationClaimTests {
    static let patient = JSONRPCClient.Configuration(requestTimeout: .seconds(120))

    /// A client over a raw peer, and a call whose response the peer sends after `notifications`: when the call
    /// returns, every observer has run for each of them (observers run in wire order, before later messages).
    static func deliver(_ methods: [String], to client: JSONRPCClient, from peer: RawPeer) async throws {
        async let done: JSONValue = client.call("flush")
        let request = try await peer.receive()
        for method in methods { try await peer.send(#"{"jsonrpc":"2.0","method":"\#(method)","params":{}}"#) }
        try await peer.send(#"{"jsonrpc":"2.0","id":\#(request["id"]!.jsonText),"result":true}"#)
        _ = try await done
    }

    @Test func aClaimedNamespaceReachesItsClaimantOnlyAndTheRestReachTheObservers() async throws {
        // Given a client with a catch-all observer and a claim on the `sharedObject` namespace
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: Self.patient)
        let observed = LockedValue<[String]>([]), claimed = LockedValue<[String]>([])
        client.observeNotifications { notification in observed.withLock { $0.append(notification.method) } }
        let claim = client.claimNotifications(inNamespace: "sharedObject", by: "test") { notification in
            claimed.withLock { $0.append(notification.method) }
        }
        let raw = Arrivals("raw notifications", of: client.notifications)

        // When the server sends notifications in and around that namespace
        let sent = ["sharedObject.update", "participantJoined", "sharedObject.message", "app.ping", "sharedObject",
                    "sharedObjects.update", "custonNotification"]
        try await Self.deliver(sent, to: client, from: RawPeer(connection: far))

        // Then the claimant got its namespace's (the part before the first dot), in wire order, and nobody else did
        #expect(claimed.withLock { $0 } == ["sharedObject.update", "sharedObject.message"])
        #expect(observed.withLock { $0 } == ["participantJoined", "app.ping", "sharedObject", "sharedObjects.update",
                                   "custonNotification"])
        // and the raw stream still carries every notification as received
        var all: [String] = []
        for _ in sent { all.append(try await raw.next().method) }
        #expect(all == sent)
        #expect(claim.namespace == "sharedObject")
    }

    @Test func releasingAClaimGivesTheNamespaceBackAndItMayBeClaimedAgain() async throws {
        // Given a client whose `sharedObject` namespace was claimed, then released
        let (near, far) = LocalMessageConnection.pair()
        let client = JSONRPCClient(transport: FixedTransport(connection: near), configuration: Self.patient)
        let peer = RawPeer(connection: far)
        let observed = LockedValue<[String]>([]), claimed = LockedValue<[String]>([])
        client.observeNotifications { notification in observed.withLock { $0.append(notification.method) } }
        var claim: NotificationClaim? = client.claimNotifications(inNamespace: "sharedObject", by: "first") { _ in
            Issue.record("a released claim was called")
        }
        #expect(claim != nil)
        claim = nil

        // When its notifications arrive, then it is claimed again and more arrive
        try await Self.deliver(["sharedObject.update"], to: client, from: peer)
        let again = client.claimNotifications(inNamespace: "sharedObject", by: "second") { notification in
            claimed.withLock { $0.append(notification.method) }
        }
        try await Self.deliver(["sharedObject.closed"], to: client, from: peer)

        // Then the unclaimed one went to the observers, the later one to the new claimant
        #expect(observed.withLock { $0 } == ["sharedObject.update"])
        #expect(claimed.withLock { $0 } == ["sharedObject.closed"])
        withExtendedLifetime(again) {}
    }

    @Test func claimingANamespaceTwiceIsAProgrammerErrorNamingBothClaimants() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let client = JSONRPCClient(transport: FixedTransport(connection: LocalMessageConnection.pair().0))
            let first = client.claimNotifications(inNamespace: "sharedObject", by: "SharedObjectClient") { _ in }
            let second = client.claimNotifications(inNamespace: "sharedObject", by: "another consumer") { _ in }
            withExtendedLifetime((first, second)) {}
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("'sharedObject'"), "\(stderr)")
        #expect(stderr.contains("SharedObjectClient") && stderr.contains("another consumer"), "\(stderr)")
    }

    @Test func aNamespaceIsOneNonEmptyWordWithoutADot() async throws {
        // (a method name passed as the namespace would claim nothing: stopped at once instead)
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let client = JSONRPCClient(transport: FixedTransport(connection: LocalMessageConnection.pair().0))
            withExtendedLifetime(client.claimNotifications(inNamespace: "sharedObject.update", by: "test") { _ in }) {}
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("'sharedObject.update'"), "\(stderr)")
    }
}
