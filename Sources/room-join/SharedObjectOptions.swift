import CLISupport
import ArgumentParser

/// `--shared-object NAME`: objects to connect once in the room, whose changes are printed.
struct SharedObjectOptions: ParsableArguments {
    @Option(name: .customLong("shared-object"),
            help: ArgumentHelp("Connect to the shared object NAME once in the room and print its state and every "
                               + "change, message and close (repeatable). room:ROOM/NAME objects are for ROOM's members.",
                               valueName: "NAME"))
    var names: [String] = []

    @Flag(name: .customLong("shared-object-persistent"),
          help: "Create the --shared-object objects that do not exist yet as persistent (kept in the server's store).")
    var persistent = false
}
