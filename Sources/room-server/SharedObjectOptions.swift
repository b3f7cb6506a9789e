import ArgumentParser
import Logging
import SharedObjectServer

/// Who may create what in the shared-object service, and how much all sessions together may keep
/// (docs/wire-protocol.md#shared-objects). A process facing the network lets no client create persistent objects
/// unless told to (the library lets them), and keeps the library's quotas.
struct SharedObjectOptions: ParsableArguments {
    @Flag(name: .customLong("allow-persistent-shared-objects"),
          help: ArgumentHelp("Let clients create persistent shared objects (sharedObject.connect with persistent: true "
                             + "for a new name; they outlive their clients, in memory or the --shared-objects file). "
                             + "Without it such a connect gets 1102 and objects that are persistent already stay usable."))
    var allowPersistent = false

    @Option(name: .customLong("max-shared-objects"),
            help: ArgumentHelp("Shared objects that may exist at once, all sessions together (live ones and the "
                               + "persistent ones stored); one more gets 1103; 0: no limit.", valueName: "count"))
    var maxObjects = SharedObjectQuotas().maxObjects ?? 0

    @Option(name: .customLong("max-shared-object-bytes"),
            help: ArgumentHelp("Bytes of data all shared objects together may hold (their JSON text); a change past it "
                               + "gets 1104; 0: no limit.", valueName: "bytes"))
    var maxBytes = SharedObjectQuotas().maxBytes ?? 0

    func validate() throws {
        if maxObjects < 0 { throw ValidationError("--max-shared-objects must be 0 or more") }
        if maxBytes < 0 { throw ValidationError("--max-shared-object-bytes must be 0 or more") }
    }

    /// The service's configuration with `store` and these rules.
    func configuration(store: any SharedObjectStore, limits: SharedObjectLimits, logger: Logger)
        -> SharedObjectService.Configuration
    {
        SharedObjectService.Configuration(
            store: store, limits: limits, logger: logger,
            quotas: SharedObjectQuotas(maxObjects: maxObjects == 0 ? nil : maxObjects, maxBytes: maxBytes == 0 ? nil : maxBytes),
            clientsCreatePersistentObjects: allowPersistent)
    }
}
