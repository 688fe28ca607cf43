extension ContainerError {
    /// What kind of failure a ``ContainerError`` is. Compare with the static members
    /// (`error.code == .notFound`); a release may add codes, so a `switch` over them needs a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as the static member is spelled (`notFound`).
        public let name: String

        private init(name: String) {
            self.name = name
        }

        /// No container has this name or UUID (the ``ContainerError/containerName``).
        public static let notFound = Code(name: "notFound")
        /// Another container of this home already has this name (the ``ContainerError/containerName``).
        public static let duplicateName = Code(name: "duplicateName")
        /// The name (the ``ContainerError/containerName``) differs only by case from the name of another
        /// container of this home, so that "activate debug" could mean either; names are unique regardless
        /// of case.
        public static let nameDiffersOnlyByCase = Code(name: "nameDiffersOnlyByCase")
        /// The name (the ``ContainerError/containerName``) cannot be used; the message says why.
        public static let invalidName = Code(name: "invalidName")
        /// The text is not a UUID.
        public static let invalidUUID = Code(name: "invalidUUID")
        /// The DEFAULT container holds the original data and cannot be deleted.
        public static let cannotDeleteDefault = Code(name: "cannotDeleteDefault")
        /// The DEFAULT container's name is fixed.
        public static let cannotRenameDefault = Code(name: "cannotRenameDefault")
        /// A will-change delegate, hook or a participant's flush threw (the ``ContainerError/underlyingError``):
        /// the switch did not happen and nothing on disk changed.
        public static let switchCancelled = Code(name: "switchCancelled")
        /// The change was asked to stop (Ctrl-C) before it was made: it was undone and nothing on disk
        /// changed.
        public static let interrupted = Code(name: "interrupted")
        /// A file operation on the ``ContainerError/path`` failed with the ``ContainerError/underlyingError``.
        public static let io = Code(name: "io")
        /// A bookkeeping file (the ``ContainerError/path``) exists but cannot be used.
        public static let corruptMetadata = Code(name: "corruptMetadata")
        /// A switch would have to put an entry where one already is (the ``ContainerError/path``); nothing
        /// was changed.
        public static let conflict = Code(name: "conflict")
        /// A will-change delegate, hook, notification observer or participant tried to change containers
        /// while a change of the same home was under way on its thread, or a did-change hook run for
        /// another process's switch (which holds the home's lock meanwhile) tried to.
        public static let reentrantOperation = Code(name: "reentrantOperation")
        /// A switch was started from a did-change delegate, hook or notification observer (on the thread
        /// announcing another switch); it would chain switches, so it is refused.
        public static let switchWhileAnnouncing = Code(name: "switchWhileAnnouncing")
        /// The home folder (the ``ContainerError/path``) does not exist or is not a folder.
        public static let homeNotFound = Code(name: "homeNotFound")
        /// A folder (the ``ContainerError/path``) holds an entry whose name is not valid UTF-8.
        public static let unsupportedFileName = Code(name: "unsupportedFileName")
        /// An entry (the ``ContainerError/path``) is neither a file, a folder nor a symbolic link (a socket,
        /// FIFO or device), so it cannot be copied.
        public static let unsupportedFileType = Code(name: "unsupportedFileType")
        /// A crash left a journal (the ``ContainerError/path``) that could be neither finished nor undone.
        public static let recoveryFailed = Code(name: "recoveryFailed")
        /// Running hosts are attached to the home, and this instance has no way to let them take part.
        public static let unreachableHosts = Code(name: "unreachableHosts")
        /// The journal at the ``ContainerError/path`` cannot be replayed safely, so it was not replayed and
        /// nothing changed: it does not match the home's recorded state (it is left over from an earlier
        /// change, was put back by hand, or the home was copied while a change was under way), names a
        /// container that no longer exists, or is not a journal this version reads. The message says which.
        public static let refusedJournal = Code(name: "refusedJournal")
        /// A folder that must be this user's alone (the per-user folder of control sockets, the folder of a
        /// running host's socket; the ``ContainerError/path``) is not: the message says how (another owner,
        /// a link, access for others).
        public static let unsafeFolder = Code(name: "unsafeFolder")

        /// The ``name``.
        public var description: String { name }
    }
}
