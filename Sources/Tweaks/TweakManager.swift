import Foundation
public import Preferences
import Locking

/// Looks tweaks up in a stack of providers, first = highest priority, and reports how it got the answer.
///
/// Thread-safe. The lock is never held while calling out — providers, decryptors and observers may call
/// back into the manager (JustTweak's cache could deadlock on a notification posted during a read).
///
/// - Decryption: an encrypted tweak in the sealed format (`es1:KEY-ID:BASE64`) is opened by the manager's
///   ``cipher``; any other is decrypted by its provider's ``TweakProvider/decryptor`` if it has one, else
///   by the manager's ``decryptor``. Both reach every provider, including providers added later. With
///   nothing to open it, the lookup fails with ``TweakError/Code/decryptorMissing``.
/// - Cache: off by default (``cacheEnabled``). It is cleared by any provider change, by ``set(_:feature:variable:provider:)``
///   and ``delete(feature:variable:provider:)``, by ``setProviders(_:)``, by a new decryptor and by ``resetCache()``
///   (which the runtime calls after a container switch).
/// - Changes: observers registered with ``observe(_:)`` and the `Notification.Name.tweakDidChange`
///   notification hear of each change with the tweak now in effect.
public final class TweakManager: Sendable {
    /// The key of the ``TweakChange`` in the user info of `Notification.Name.tweakDidChange`.
    public static let changeUserInfoKey = "change"
    /// The key of the changed ``Tweak`` (when there is one) in the user info of `Notification.Name.tweakDidChange`.
    public static let tweakUserInfoKey = "tweak"

    private struct State {
        /// What a search reads: made anew when one of its parts changes (rarely), so that a lookup takes
        /// all of it with one retain.
        var stack: Stack
        var providers: [any TweakProvider] {
            get { stack.providers }
            set { stack = stack.with(providers: newValue) }
        }
        var decryptor: TweakDecryptor? {
            get { stack.decryptor }
            set { stack = stack.with(decryptor: newValue) }
        }
        var cipher: TweakCipher? {
            get { stack.cipher }
            set { stack = stack.with(cipher: newValue) }
        }
        /// The global evaluation context, under the task's and the lookup's.
        var context: TweakContext {
            get { stack.context }
            set { stack = stack.with(context: newValue) }
        }
        /// Names of providers that report their own changes, so the manager does not report a write twice.
        var reportingProviders: Set<String> = []
        var subscriptions: [TweakObservation] = []
        var cacheEnabled = false
        /// Only lookups whose answer is the same in every context.
        var cache: [TweakKey: CachedLookup] = [:]
        /// Bumped on every invalidation, so a lookup computed before one is never cached after it.
        var generation: UInt64 = 0

        /// Empties the cache; a lookup already under way will not fill it.
        mutating func invalidateCache() {
            cache = [:]
            generation &+= 1
        }
    }

    private let state: Locked<State>
    private let observers = ObserverList<TweakChange>()
    /// How many stacks are alive: the current one, and those that searches begun before a change still hold.
    private let census = StackCensus()

    /// Creates a manager over `providers` (first = highest priority).
    ///
    /// - Parameters:
    ///   - providers: the provider stack, the highest priority first.
    ///   - decryptor: decrypts the encrypted tweaks of every provider without its own decryptor.
    ///   - cipher: opens the values sealed in the built-in format, whichever provider holds them.
    ///   - cacheEnabled: keep resolved lookups until something changes.
    public init(
        providers: [any TweakProvider] = [], decryptor: TweakDecryptor? = nil, cipher: TweakCipher? = nil,
        cacheEnabled: Bool = false
    ) {
        state = Locked(State(stack: Stack(providers: [], decryptor: nil, cipher: nil, context: .empty, census: census)))
        state.withLock { state in
            state.decryptor = decryptor
            state.cipher = cipher
            state.cacheEnabled = cacheEnabled
        }
        setProviders(providers, notify: false)
    }

    deinit {
        // Subscriptions hold only a weak reference back; removing them here frees the providers' lists.
        let subscriptions = state.withLock { $0.subscriptions }
        for subscription in subscriptions { subscription.remove() }
    }

    // MARK: The stack

    /// The providers, highest priority first.
    public var providers: [any TweakProvider] { state.withLock { $0.providers } }

    /// Replaces the stack (first = highest priority); clears the cache and notifies observers.
    public func setProviders(_ providers: [any TweakProvider]) {
        setProviders(providers, notify: true)
    }

    /// Empties the stack as ``setProviders(_:)`` does, without telling the observers: for an owner that
    /// is closing, whose observers must not be called back while it comes apart.
    package func removeProvidersWithoutNotification() {
        setProviders([], notify: false)
    }

    /// Replaces the stack, the decryptor and the cipher in one step, so no lookup sees some of the new
    /// parts with some of the old (a host reloading its start-up scripts); clears the cache and
    /// notifies observers once — or, with `notify` false, leaves that to ``announceStackChange()``.
    package func replaceStack(
        providers: [any TweakProvider], decryptor: TweakDecryptor?, cipher: TweakCipher?, notify: Bool = true
    ) {
        setProviders(providers, notify: notify, secrets: (decryptor, cipher))
    }

    /// Tells the observers that the stack changed, as ``setProviders(_:)`` does.
    package func announceStackChange() {
        emit(TweakChange(provider: nil, key: nil, tweak: nil))
    }

    private func setProviders(
        _ providers: [any TweakProvider], notify: Bool, secrets: (decryptor: TweakDecryptor?, cipher: TweakCipher?)? = nil
    ) {
        // Subscribing calls into the providers, so it happens before taking the lock.
        var subscriptions: [TweakObservation] = []
        var reporting: Set<String> = []
        for provider in providers {
            let observation = provider.observeChanges { [weak self] change in
                self?.providerDidChange(change)
            }
            if let observation {
                subscriptions.append(observation)
                reporting.insert(provider.name)
            }
        }
        let old = state.withLock { state in
            defer {
                if let secrets {
                    state.stack = state.stack.with(providers: providers, decryptor: secrets.decryptor, cipher: secrets.cipher)
                } else {
                    state.providers = providers
                }
                state.reportingProviders = reporting
                state.subscriptions = subscriptions
                state.invalidateCache()
            }
            return state.subscriptions
        }
        for subscription in old { subscription.remove() }
        if notify { emit(TweakChange(provider: nil, key: nil, tweak: nil)) }
    }

    /// The manager-wide decryptor, used for every provider without its own. Setting it clears the cache.
    public var decryptor: TweakDecryptor? {
        get { state.withLock { $0.decryptor } }
        set {
            state.withLock { state in
                state.decryptor = newValue
                state.invalidateCache()
            }
        }
    }

    /// The built-in cipher, which opens every encrypted tweak in the sealed format (`es1:KEY-ID:BASE64`)
    /// of every provider. Setting it clears the cache.
    public var cipher: TweakCipher? {
        get { state.withLock { $0.cipher } }
        set {
            state.withLock { state in
                state.cipher = newValue
                state.invalidateCache()
            }
        }
    }

    /// The providers, the decryptor and the cipher, read together.
    package func stack() -> (providers: [any TweakProvider], decryptor: TweakDecryptor?, cipher: TweakCipher?) {
        state.withLock { ($0.providers, $0.decryptor, $0.cipher) }
    }

    /// The stack searches read now; hold it while using its parts, so that ``waitForEarlierSearches(timeout:)``
    /// knows the search is under way.
    func currentStack() -> Stack {
        state.withLock { $0.stack }
    }

    /// Waits until every search (lookup, list, explanation, write) begun before the stack last changed has
    /// ended, so that what only the stacks before used can be let go: the Lua state of the start-up
    /// scripts a reload replaced. False when some were still under way after `timeout`.
    package func waitForEarlierSearches(timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while census.count > 1 {
            guard ContinuousClock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.000_2)
        }
        return true
    }

    /// Whether resolved lookups are cached until something changes. Turning it on or off clears the cache.
    public var cacheEnabled: Bool {
        get { state.withLock { $0.cacheEnabled } }
        set {
            state.withLock { state in
                state.cacheEnabled = newValue
                state.invalidateCache()
            }
        }
    }

    /// The global evaluation context: under the task's (``TweakContext/current``) and each lookup's own,
    /// which win over it. Setting it needs no cache clearing: only answers that are the same in every
    /// context are cached.
    public var context: TweakContext {
        get { state.withLock { $0.context } }
        set { state.withLock { $0.context = newValue } }
    }

    /// `context` over the task's context over the global one: the context a lookup evaluates in.
    package func effectiveContext(_ context: TweakContext = .empty) -> TweakContext {
        context.merged(over: TweakContext.current.merged(over: self.context))
    }

    /// Empties the cache, for example after a container switch.
    public func resetCache() {
        state.withLock { $0.invalidateCache() }
    }

    /// A number that changes whenever what a lookup may answer does (the stack, a provider's tweaks, the
    /// cache dropped after a switch): two reads with the same revision saw the same flags.
    package var revision: UInt64 {
        state.withLock { $0.generation }
    }

    // MARK: Reading

    /// The providers, the decryptor, the cipher and the global context, as a search reads them. Made anew
    /// for every change, and counted while alive (see ``waitForEarlierSearches(timeout:)``).
    final class Stack: Sendable {
        let providers: [any TweakProvider]
        let decryptor: TweakDecryptor?
        let cipher: TweakCipher?
        let context: TweakContext
        private let census: StackCensus

        init(
            providers: [any TweakProvider], decryptor: TweakDecryptor?, cipher: TweakCipher?, context: TweakContext,
            census: StackCensus
        ) {
            self.providers = providers
            self.decryptor = decryptor
            self.cipher = cipher
            self.context = context
            self.census = census
            census.add()
        }

        deinit { census.remove() }

        /// This stack with some parts replaced.
        func with(
            providers: [any TweakProvider]? = nil, decryptor: TweakDecryptor?? = nil, cipher: TweakCipher?? = nil,
            context: TweakContext? = nil
        ) -> Stack {
            Stack(
                providers: providers ?? self.providers, decryptor: decryptor ?? self.decryptor, cipher: cipher ?? self.cipher,
                context: context ?? self.context, census: census)
        }
    }

    /// What a search reads under the lock, all at once: the stack and the state of the cache.
    private struct Search {
        let stack: Stack
        let generation: UInt64
        let cache: Bool
    }

    /// A lookup's start: the cache's answer, or what a search needs.
    private enum Start {
        case cached(CachedLookup)
        case search(Search)
    }

    /// The cache's answer for `key` when it has one, else what a search needs: one trip under the lock.
    private func start(_ key: TweakKey) -> Start {
        state.withLock { state in
            if state.cacheEnabled, let hit = state.cache[key] { return .cached(hit) }
            return .search(Search(stack: state.stack, generation: state.generation, cache: state.cacheEnabled))
        }
    }

    /// Finds the tweak in the highest provider that has it, decrypts it, and reports every provider above
    /// that passed and why.
    ///
    /// Each provider evaluates the flag in `context` merged over the task's (``TweakContext/current``)
    /// and the manager's global ``context``. A provider that throws is recorded in
    /// ``TweakLookup/misses`` and the next one is asked. A tweak that is found but cannot be decrypted is
    /// an error, not a reason to fall back to a lower provider. An answer that is the same in every
    /// context is cached (when the cache is on); one that depends on it never is.
    ///
    /// - Throws: ``TweakError/Code/notFound`` (with every provider's failure),
    ///   ``TweakError/Code/defaulted`` (a provider has the flag and leaves the value to the caller's
    ///   default: disabled, no default variant, targeting that cannot be evaluated),
    ///   ``TweakError/Code/decryptorMissing`` or ``TweakError/Code/decryptionFailed``.
    public func lookup(feature: String, variable: String, context: TweakContext = .empty) throws -> TweakLookup {
        let key = TweakKey(feature: feature, variable: variable)
        switch start(key) {
        case .cached(let hit): return hit.lookup
        case .search(let search): return try self.search(key, context: context, search)
        }
    }

    /// The search of ``lookup(feature:variable:context:)`` past the cache.
    private func search(_ key: TweakKey, context: TweakContext, _ search: Search) throws -> TweakLookup {
        let stack = search.stack
        defer { withExtendedLifetime(stack) {} }
        let effective = context.merged(over: TweakContext.current.merged(over: stack.context))
        var misses: [TweakProviderMiss] = []
        // Whether a provider passed over could have answered in another context.
        var passedDependOnContext = false
        for provider in stack.providers {
            let answer: TweakAnswer?
            do {
                answer = try provider.evaluate(feature: key.feature, variable: key.variable, context: effective)
            } catch {
                misses.append(TweakProviderMiss(provider: provider.name, reason: .failed(error)))
                continue
            }
            var tweak: Tweak
            switch consume answer {
            case nil:
                misses.append(TweakProviderMiss(provider: provider.name, reason: .missing))
                passedDependOnContext = passedDependOnContext || provider.missesDependOnContext
                continue
            case .callerDefault(var defaulted)?:
                defaulted.dependsOnContext = defaulted.dependsOnContext || passedDependOnContext
                throw TweakError.defaulted(defaulted, source: provider.name)
            case .value(let found)?:
                tweak = found
            }
            // Written only when they change: a provider's answers are often made once and shared, and
            // a write would copy them.
            let source = provider.name
            if tweak.source != source { tweak.source = source }
            if passedDependOnContext && !tweak.dependsOnContext { tweak.dependsOnContext = true }
            if tweak.isEncrypted { tweak = try Self.opened(tweak, own: provider.decryptor, stack: stack.decryptor, cipher: stack.cipher).tweak }
            if search.cache && !tweak.dependsOnContext {
                let cached = CachedLookup(TweakLookup(tweak: tweak, misses: misses, isCached: true))
                state.withLock { state in
                    if state.cacheEnabled && state.generation == search.generation { state.cache[key] = cached }
                }
            }
            return TweakLookup(tweak: tweak, misses: misses)
        }
        throw TweakError.notFound(feature: key.feature, variable: key.variable, misses: misses)
    }

    /// The value in effect, decrypted, without the details of ``lookup(feature:variable:context:)``: straight from
    /// the cache when it has it (one look-up under the lock and one retain, nothing else copied). The path of
    /// the typed accessors and of Lua's `tweak.value`.
    ///
    /// - Throws: the errors of ``lookup(feature:variable:context:)``.
    @usableFromInline package func resolvedValue(feature: String, variable: String) throws -> JSONValue {
        let key = TweakKey(feature: feature, variable: variable)
        switch start(key) {
        case .cached(let hit): return hit.value
        case .search(let search): return try self.search(key, context: .empty, search).value
        }
    }

    /// ``resolvedValue(feature:variable:)`` for `context`: a cached answer is the same in every
    /// context, so the cache answers first without working the context out.
    @usableFromInline package func resolvedValue(feature: String, variable: String, context: TweakContext) throws -> JSONValue {
        let key = TweakKey(feature: feature, variable: variable)
        switch start(key) {
        case .cached(let hit): return hit.value
        case .search(let search): return try self.search(key, context: context, search).value
        }
    }

    /// The tweak in effect (see ``lookup(feature:variable:context:)``).
    public func tweak(feature: String, variable: String, context: TweakContext = .empty) throws -> Tweak {
        try lookup(feature: feature, variable: variable, context: context).tweak
    }

    /// The key of every flag of the stack, sorted: those of ``list()`` and those whose lookups leave the
    /// value to the caller's default (see ``TweakProvider/allKeys()``). Providers that cannot list are
    /// left out, as ``list()`` reports them.
    public func allKeys() -> [TweakKey] {
        var keys = Set<TweakKey>()
        let stack = currentStack()
        defer { withExtendedLifetime(stack) {} }
        for provider in stack.providers {
            guard let own = try? provider.allKeys() else { continue }
            keys.formUnion(own)
        }
        return keys.sorted()
    }

    /// Every tweak of the stack, one per feature and variable from the highest provider that has it.
    ///
    /// Never throws: providers that cannot list, and tweaks that cannot be decrypted, are reported in
    /// ``TweakList/failures``.
    public func list() -> TweakList {
        let stack = currentStack()
        defer { withExtendedLifetime(stack) {} }
        let (providers, decryptor, cipher) = (stack.providers, stack.decryptor, stack.cipher)
        var merged: [TweakKey: Tweak] = [:]
        var failures: [TweakProviderMiss] = []
        // Lowest priority first, so higher providers overwrite.
        for provider in providers.reversed() {
            let tweaks: [Tweak]
            do {
                tweaks = try provider.allTweaks()
            } catch {
                failures.append(TweakProviderMiss(provider: provider.name, reason: .failed(error)))
                continue
            }
            for var tweak in tweaks {
                tweak.source = provider.name
                merged[tweak.key] = tweak
            }
        }
        var result: [Tweak] = []
        result.reserveCapacity(merged.count)
        for key in merged.keys.sorted() {
            let tweak = merged[key]!
            guard tweak.isEncrypted else {
                result.append(tweak)
                continue
            }
            let own = providers.first { $0.name == tweak.source }?.decryptor
            do {
                result.append(try Self.opened(tweak, own: own, stack: decryptor, cipher: cipher).tweak)
            } catch {
                failures.append(TweakProviderMiss(provider: tweak.source, reason: .failed(error)))
                result.append(tweak)
            }
        }
        return TweakList(tweaks: result, failures: failures)
    }

    /// The tweak with its value opened when it is encrypted, and what opened it: the cipher for a value
    /// in the sealed format, else the provider's own decryptor (`own`), else the stack's.
    static func opened(
        _ tweak: Tweak, own: TweakDecryptor?, stack: TweakDecryptor?, cipher: TweakCipher?
    ) throws -> (tweak: Tweak, openedBy: TweakOpener?) {
        guard tweak.isEncrypted else { return (tweak, nil) }
        let sealedText = tweak.value.sealedText
        guard (cipher != nil && sealedText != nil) || own != nil || stack != nil else {
            throw TweakError.decryptorMissing(feature: tweak.feature, variable: tweak.variable, source: tweak.source)
        }
        var plain = tweak
        let opener: TweakOpener
        do {
            if let cipher, let sealedText {
                let keyID: String
                (plain.value, keyID) = try cipher.openReportingKey(sealedText)
                opener = .cipher(keyID: keyID)
            } else if let own {
                plain.value = try own(tweak)
                opener = .providerDecryptor(provider: tweak.source)
            } else {
                plain.value = try stack!(tweak)
                opener = .stackDecryptor
            }
        } catch {
            throw TweakError.decryptionFailed(
                feature: tweak.feature, variable: tweak.variable, source: tweak.source, underlying: error)
        }
        plain.isEncrypted = false
        plain.isSealed = true
        return (plain, opener)
    }

    // MARK: Writing

    /// Stores `value` in the provider named `provider`, or in the highest mutable provider.
    ///
    /// The type is kept: when another provider of the stack defines the tweak (its highest one, sealed
    /// values aside), `value` must be of that type; when none does, it must be of the type the stack
    /// answers now (the target's own value, or a sealed one once opened) — an integer passes for a
    /// double, any array for an array and any object for an object. So a reader of the flag never finds
    /// it turned into another type, unless `changingType` says that is the point.
    ///
    /// - Parameters:
    ///   - value: the value to store.
    ///   - feature: the feature of the flag.
    ///   - variable: the variable of the flag.
    ///   - provider: the name of the mutable provider to store in; by default the highest mutable one.
    ///   - changingType: store `value` whatever the type the flag has now.
    /// - Throws: ``TweakError/Code/typeRefused`` (also for a value holding a null, which no flag holds),
    ///   ``TweakError/Code/noMutableProvider``, ``TweakError/Code/unknownProvider``,
    ///   ``TweakError/Code/providerNotMutable``, or ``TweakError/Code/providerFailed``.
    public func set(
        _ value: JSONValue, feature: String, variable: String, provider: String? = nil, changingType: Bool = false
    ) throws {
        guard !value.containsNull else {
            throw TweakError.typeRefused(
                feature: feature, variable: variable, expected: "value without null", given: value, definedBy: "every flag")
        }
        try write(feature: feature, variable: variable, provider: provider) { target in
            if !changingType, let kept = typeToKeep(feature: feature, variable: variable, writingTo: target.name),
               !kept.value.acceptsType(of: value)
            {
                throw TweakError.typeRefused(
                    feature: feature, variable: variable, expected: kept.value.typeName, given: value, definedBy: kept.source)
            }
            try target.set(value, feature: feature, variable: variable)
        }
    }

    /// The tweak whose type a write to the provider named `target` must keep: as the highest other
    /// provider defines it (sealed values and failing providers skipped), else as the stack answers it.
    private func typeToKeep(feature: String, variable: String, writingTo target: String) -> Tweak? {
        let stack = currentStack()
        defer { withExtendedLifetime(stack) {} }
        for provider in stack.providers where provider.name != target {
            if let tweak = try? provider.tweak(feature: feature, variable: variable), !tweak.isEncrypted {
                return tweak
            }
        }
        return try? lookup(feature: feature, variable: variable).tweak
    }

    /// Stores a typed value (see ``set(_:feature:variable:provider:changingType:)``).
    public func set<T: TweakValueConvertible>(_ value: T, feature: String, variable: String, provider: String? = nil) throws {
        try set(value.tweakValue, feature: feature, variable: variable, provider: provider)
    }

    /// The overrides of the stack — the tweaks of every ``OverridesTweakProvider`` in it, highest provider
    /// first, each sorted by feature and variable. They belong to the active container.
    ///
    /// - Throws: ``TweakError/Code/providerFailed`` when a store cannot be read.
    public func listOverrides() throws -> [Tweak] {
        try overridesProviders.flatMap { try $0.allTweaks().sorted { $0.key < $1.key } }
    }

    /// Removes every override of the stack (of the active container) at once; observers hear one
    /// change per overrides provider (normally one), with no key: read the flags again.
    ///
    /// - Returns: how many overrides were removed, and from which providers.
    @discardableResult
    public func deleteAllOverrides() throws -> (removed: Int, providers: [String]) {
        var removed = 0
        var names: [String] = []
        for provider in overridesProviders {
            removed += try provider.deleteAll()
            names.append(provider.name)
        }
        return (removed, names)
    }

    /// The overrides providers of the stack, highest first.
    private var overridesProviders: [OverridesTweakProvider] {
        providers.compactMap { $0 as? OverridesTweakProvider }
    }

    /// Removes the value from the provider named `provider`, or from the highest mutable provider, so
    /// lower providers show through again.
    public func delete(feature: String, variable: String, provider: String? = nil) throws {
        try write(feature: feature, variable: variable, provider: provider) { target in
            try target.delete(feature: feature, variable: variable)
        }
    }

    private func write(
        feature: String, variable: String, provider name: String?, _ body: (any MutableTweakProvider) throws -> Void
    ) throws {
        let (providers, reporting) = state.withLock { ($0.providers, $0.reportingProviders) }
        let target = try Self.writeTarget(named: name, in: providers)
        do {
            try body(target)
        } catch let error as TweakError {
            throw error
        } catch {
            throw TweakError.providerFailed(provider: target.name, feature: feature, variable: variable, underlying: error)
        }
        resetCache()
        // A provider that reports its own changes has already notified (synchronously) through providerDidChange.
        if !reporting.contains(target.name) {
            emitChange(provider: target.name, key: TweakKey(feature: feature, variable: variable))
        }
    }

    /// The provider of `providers` a write goes to: the one named `name`, or the highest mutable one.
    ///
    /// - Throws: ``TweakError/Code/unknownProvider``, ``TweakError/Code/providerNotMutable``
    ///   or ``TweakError/Code/noMutableProvider``.
    package static func writeTarget(named name: String?, in providers: [any TweakProvider]) throws -> any MutableTweakProvider {
        if let name {
            guard let named = providers.first(where: { $0.name == name }) else {
                throw TweakError.unknownProvider(name: name, available: providers.map(\.name))
            }
            guard let mutable = named as? any MutableTweakProvider else { throw TweakError.providerNotMutable(name: name) }
            return mutable
        }
        guard let first = providers.lazy.compactMap({ $0 as? any MutableTweakProvider }).first else {
            throw TweakError.noMutableProvider(available: providers.map(\.name))
        }
        return first
    }

    // MARK: Changes

    /// Calls `handler` after every change, on the thread that made it, outside the manager's lock.
    /// Keep the returned observation: `remove()` or dropping it unregisters the handler.
    public func observe(_ handler: @escaping @Sendable (TweakChange) -> Void) -> TweakObservation {
        observers.add(handler)
    }

    private func providerDidChange(_ change: TweakProviderChange) {
        resetCache()
        if let keys = change.keys {
            for key in keys { emitChange(provider: change.provider, key: key) }
        } else {
            emit(TweakChange(provider: change.provider, key: nil, tweak: nil))
        }
    }

    private func emitChange(provider: String, key: TweakKey) {
        let tweak = try? lookup(feature: key.feature, variable: key.variable).tweak
        emit(TweakChange(provider: provider, key: key, tweak: tweak))
    }

    private func emit(_ change: TweakChange) {
        observers.notify(change)
        var userInfo: [AnyHashable: Any] = [Self.changeUserInfoKey: change]
        if let tweak = change.tweak { userInfo[Self.tweakUserInfoKey] = tweak }
        NotificationCenter.default.post(name: .tweakDidChange, object: self, userInfo: userInfo)
    }
}
