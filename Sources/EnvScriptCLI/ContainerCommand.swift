import ArgumentParser
import Containers
import EnvScript
import Foundation

/// `envscript container ...`: the containers of a home, switched with the start-up scripts' hooks.
struct ContainerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "container",
        abstract: "List, create, switch and manage the containers of a home.",
        discussion: "CONTAINER is a name or a UUID. Switches run the hooks of the start-up scripts.",
        subcommands: [
            List.self, Info.self, Create.self, Activate.self, Delete.self, Clean.self, Clone.self, Update.self, Reset.self,
            Export.self, Import.self, Diff.self, Doctor.self,
        ])

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the containers; the active one is marked with *.")
        @OptionGroup var runtime: RuntimeOptions
        @Flag(help: "Print JSON instead of a table.") var json = false

        func run() throws {
            try runtime.withHost(readsOnly: true) { host in
                // A damaged record is listed as damaged; it does not hide the other containers.
                let listing = try host.containerOperations.list()
                for damaged in listing.damaged {
                    printError("warning: container \(damaged.uuid) is damaged: its record '\(damaged.recordPath)' is unusable: \(damaged.problem); run 'envscript container doctor' to see every problem of the home and 'envscript container doctor --repair' to repair it")
                }
                if let halfSwitched = try? HomeDoctor(home: host.containers.home).examine().first(where: \.kind.misplacesEntries) {
                    printError("warning: \(halfSwitched.problem); run 'envscript container doctor' to see every problem of the home and 'envscript container doctor --repair' to repair it")
                }
                if json { return try printJSON(listing) }
                printTable(
                    header: ["", "NAME", "UUID", "ACTIVATIONS", "DESCRIPTION"],
                    rows: listing.containers.map { [$0.isActive ? "*" : "", $0.name, $0.uuid, "\($0.activatedCount)", $0.description ?? ""] }
                        + listing.damaged.map { [$0.isActive ? "*" : "", "(damaged)", $0.uuid, "", "its record is unusable; see envscript container doctor"] })
            }
        }
    }

    struct Info: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info", abstract: "Show one container (the active one by default).")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "A name or UUID.") var container: String?
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            try runtime.withHost(readsOnly: true) { host in
                let record = try host.containerOperations.info(container)
                if json { return try printJSON(record) }
                printTable(header: ["FIELD", "VALUE"], rows: record.fields)
            }
        }
    }

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Create an empty container (it does not become active).")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "Its name: 1 to 255 characters, no white space at either end, unique in the home regardless of case.") var name: String
        @Option(help: "A description.") var description: String?

        func run() throws {
            try runtime.withHost { host in
                print(try host.containerOperations.create(name: name, description: description).uuid)
            }
        }
    }

    struct Activate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "activate", abstract: "Switch the home to a container.",
            discussion: """
                A switch that fails, or that Ctrl-C (or SIGTERM) stops before it is made, is undone: nothing on \
                disk changes. Stopped after it was made, the switch is finished and its did-change hooks are \
                stopped. Exit status: 0 switched; 1 refused or failed; 2 usage errors; 130 stopped by Ctrl-C \
                (143 by SIGTERM), the message saying which container the home is on.
                """)
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "A name or UUID.") var container: String

        func run() throws {
            try runtime.withHost { host in
                try InterruptibleActivation.activate(container, in: host)
            }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a container (the active one switches to DEFAULT first).")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "A name or UUID.") var container: String

        func run() throws {
            try runtime.withHost { host in
                let change = try host.containerOperations.delete(container)
                reportChange("deleted \(change.container.name)", change.report)
            }
        }
    }

    struct Clean: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clean", abstract: "Empty a container's data.")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "A name or UUID.") var container: String

        func run() throws {
            try runtime.withHost { host in
                let change = try host.containerOperations.clean(container)
                reportChange("cleaned \(change.container.name)", change.report)
            }
        }
    }

    struct Clone: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clone", abstract: "Copy a container into a new one.")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "The container to copy: a name or UUID.") var source: String
        @Argument(help: "The new container's name.") var name: String
        @Option(help: "A description.") var description: String?

        func run() throws {
            try runtime.withHost { host in
                print(try host.containerOperations.clone(source, name: name, description: description).uuid)
            }
        }
    }

    struct Update: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "update", abstract: "Rename a container or change its description.")
        @OptionGroup var runtime: RuntimeOptions
        @Argument(help: "A name or UUID.") var container: String
        @Option(help: "The new name.") var name: String?
        @Option(help: "The new description.") var description: String?

        func validate() throws {
            if name == nil && description == nil { throw ValidationError("Give --name, --description or both.") }
        }

        func run() throws {
            try runtime.withHost { host in
                _ = try host.containerOperations.update(container, name: name, description: description)
            }
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Go back to DEFAULT and remove every other container.")
        @OptionGroup var runtime: RuntimeOptions

        func run() throws {
            try runtime.withHost { host in
                reportChange("reset the home", try host.containerOperations.reset().report)
            }
        }
    }
}

extension ContainerView {
    /// The fields as `container info` lists them.
    var fields: [[String]] {
        var fields = [
            ["name", name], ["uuid", uuid], ["description", description ?? ""], ["default", "\(isDefault)"],
            ["active", "\(isActive)"], ["created", createdAt],
            ["last activated", lastActivatedAt ?? "never"], ["activations", "\(activatedCount)"],
        ]
        if let diskUsage {
            let size = ByteCountFormatter.string(fromByteCount: diskUsage.bytes, countStyle: .file)
            fields.append(["size on disk", "\(size) in \(diskUsage.entries) \(diskUsage.entries == 1 ? "entry" : "entries")"])
        }
        return fields
    }
}

/// Prints what a change did and which running hosts took part in it (its `report`), for example
/// `activated Debug (2 running hosts took part: pid 4242, pid 4250)`.
func reportChange(_ what: String, _ report: ContainerChangeReport) {
    let pids = report.participants
    switch pids.count {
    case 0: print(what)
    case 1: print("\(what) (1 running host took part: pid \(pids[0]))")
    default: print("\(what) (\(pids.count) running hosts took part: \(pids.map { "pid \($0)" }.joined(separator: ", ")))")
    }
    // Not plain success: the change is made, but these hosts' did-change hooks did not run with it.
    for pid in report.lateParticipants {
        printError("""
            warning: the running host pid \(pid) did not reload and run its did-change hooks within the host \
            timeout (--host-timeout): it is busy (in a long script, or stuck in a hook); it catches up once free, \
            from the container it last saw to the one then live
            """)
    }
    if let failure = report.leftToFinish {
        printError("""
            warning: the change is made, but tidying up after it failed: \(failure). The next envscript \
            command on this home (or `envscript container doctor --repair`) finishes it
            """)
    }
}
