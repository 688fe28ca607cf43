/// The LuaLS annotations of every host module function, keyed by module then function.
///
/// ``LuaTypeDefinitions`` pairs these with the functions the modules really register, and refuses to
/// generate when the two disagree, so the definitions cannot drift from the modules.
enum ModuleDocumentation {
    static let classes = """
        ---@class container.Info
        ---@field uuid string
        ---@field name string
        ---@field description string?
        ---@field is_default boolean
        ---@field is_active boolean
        ---@field created_at string ISO 8601
        ---@field last_activated_at string? ISO 8601
        ---@field activated_count integer

        ---@class container.Damaged a container whose record cannot be used; its data is still in its folder
        ---@field uuid string
        ---@field is_default boolean
        ---@field is_active boolean
        ---@field record_path string its unusable container.json
        ---@field problem string what is wrong with the record

        ---@class container.EntryChange
        ---@field path string relative to the container
        ---@field hidden boolean? set for an entry hidden behind an excluded one of the live home
        ---@field kind "file"|"directory"|"symlink"
        ---@field size_before integer?
        ---@field size_after integer?

        ---@class container.KeyChange
        ---@field file string the property list, relative to the container
        ---@field kind "tweak"|"state"
        ---@field name string `feature.variable` for a tweak override, the key for stored state
        ---@field before any
        ---@field after any

        ---@class container.Changes<T>: {added: T[], removed: T[], changed: T[]}

        ---@class container.Diff
        ---@field first string
        ---@field second string
        ---@field entries container.Changes<container.EntryChange>
        ---@field preferences container.Changes<container.KeyChange>

        ---@class envscript.Handle
        local Handle = {}
        --- Unregisters the handler; calling it again does nothing.
        function Handle:remove() end

        ---@class tweak.Provider
        local Provider = {}
        --- The provider's name, as lookups report it in `source`.
        ---@return string
        function Provider:name() end
        --- What a remote provider knows of its fetches; nil for other providers.
        ---@return tweak.RemoteStatus?
        function Provider:status() end

        ---@class tweak.RemoteStatus
        ---@field url string
        ---@field has_tweaks boolean whether there are tweaks to answer from
        ---@field from_kept_copy boolean whether they come from the kept copy, not from a fetch of this run
        ---@field etag string?
        ---@field last_attempt string? ISO 8601
        ---@field last_success string? ISO 8601
        ---@field last_error string? the last fetch's failure; nil after a success
        ---@field kept_copy_error string? the last failure to read or write the kept copy

        ---@alias tweak.Value boolean|number|string|table

        ---@class tweak.Tweak
        ---@field feature string
        ---@field variable string
        ---@field value tweak.Value
        ---@field source string
        ---@field encrypted boolean still sealed (a listed value nothing could open)
        ---@field sealed boolean held sealed by its provider: a secret to mask until revealed
        ---@field title string?
        ---@field description string?
        ---@field group string?
        ---@field reason string why this value: STATIC, TARGETING_MATCH, SPLIT, DEFAULT, ...
        ---@field variant string? the value's name among the flag's variants, when its provider names them
        ---@field metadata table<string, tweak.Value>? the flag's metadata (its flag set's under its own)

        ---@class tweak.Context
        ---@field targetingKey string? who the flag is evaluated for
        ---@field [string] tweak.Value attributes: country, app version, plan...

        ---@class tweak.Defaulted
        ---@field feature string
        ---@field variable string
        ---@field source string the provider that has the flag
        ---@field reason string DISABLED, DEFAULT or ERROR
        ---@field error_code string? PARSE_ERROR, ...
        ---@field error_message string?
        ---@field metadata table<string, tweak.Value>?

        ---@class tweak.Cipher
        ---@field key_ids fun(self: tweak.Cipher): string[] the ids of its keys, oldest first; the last one seals
        ---@field seal fun(self: tweak.Cipher, value: tweak.Value, key_id: string?): string sealed text, es1:KEY-ID:BASE64
        ---@field open fun(self: tweak.Cipher, text: string): tweak.Value

        ---@class tweak.Info: tweak.Tweak
        ---@field failures string[] providers above the source that failed

        ---@alias state.Value nil|boolean|number|string|table
        """

    static let modules: [String: (summary: String, functions: [String: String])] = [
        "container": ("Switchable environments of the application's home.", [
            "list": "--- Every container, DEFAULT first, and those whose record cannot be used (see `envscript container doctor`).\n---@return container.Info[] containers\n---@return container.Damaged[] damaged",
            "active": "--- The active container.\n---@return container.Info",
            "get": "--- A container by name or UUID, or nil.\n---@param name_or_uuid string\n---@return container.Info?",
            "create": "--- Creates an empty container; it does not become active.\n---@param name string\n---@param options? {description: string?}\n---@return container.Info",
            "activate": "--- Switches the home to a container, running the hooks around it.\n---@param name_or_uuid string\n---@return container.Info",
            "delete": "--- Deletes a container (the active one switches to DEFAULT first).\n---@param name_or_uuid string",
            "clean": "--- Empties a container's data.\n---@param name_or_uuid string",
            "clone": "--- Copies a container into a new one.\n---@param name_or_uuid string\n---@param new_name string\n---@param options? {description: string?}\n---@return container.Info",
            "export": "--- Writes a container to a zip archive (files, links, metadata, a manifest with SHA-256s).\n---@param name_or_uuid string\n---@param path string\n---@return {path: string, entries: integer}",
            "import": "--- Creates a container from an archive written by `export`, after checking every entry.\n---@param path string\n---@param options? {name: string?, max_size: integer?, max_files: integer?}\n---@return container.Info",
            "diff": "--- What differs between two containers, or a container and an archive (by path).\n---@param first string a name, UUID or archive path\n---@param second string a name, UUID or archive path\n---@return container.Diff",
            "update": "--- Renames a container or changes its description.\n---@param name_or_uuid string\n---@param changes {name: string?, description: string?}\n---@return container.Info",
            "reset": "--- Activates DEFAULT and removes every other container.",
            "exclude": "--- Paths (matched by whole components) that stay in the live home across switches.\n---@param paths string|string[]",
            "on_will_change": "--- Runs before every switch; an error cancels it with nothing changed.\n---@param hook fun(to: container.Info, from: container.Info?)\n---@return envscript.Handle",
            "on_did_change": "--- Runs after every switch.\n---@param hook fun(to: container.Info, from: container.Info?)\n---@return envscript.Handle",
        ]),
        "tweak": ("Feature flags over a stack of providers.", [
            "stack": "--- Sets the providers, highest priority first.\n---@param providers tweak.Provider[]",
            "overrides": "--- The mutable overrides stored in the active container.\n---@param name? string\n---@return tweak.Provider",
            "json": "--- Tweaks from a JSON file in JustTweak's format.\n---@param path string\n---@param name? string\n---@return tweak.Provider",
            "flagd": "--- Flags from a flagd flag-definition file: variants, a default variant, JsonLogic targeting with flagd's\n--- `fractional`, `sem_ver`, `starts_with` and `ends_with`, `$evaluators`, metadata; evaluated in each lookup's\n--- context, in Swift. The file is read again when it changes. `invalid_rules`: `fail_evaluation` (default: loaded as\n--- flagd does; a flag whose rule cannot be evaluated, or that is wrong itself (no variants), answers PARSE_ERROR,\n--- and a warning names its line) or `refuse_file` (such a flag refuses the file, naming its line and flag).\n---@param path string\n---@param options? string|{name: string?, invalid_rules: ('refuse_file'|'fail_evaluation')?}\n---@return tweak.Provider",
            "ephemeral": "--- Tweaks kept in memory: {feature = {variable = value}}.\n---@param values? table<string, table<string, tweak.Value>>\n---@param name? string\n---@return tweak.Provider",
            "ofrep": "--- Flags an OFREP service evaluates: a bulk evaluation (POST `url`/ofrep/v1/evaluate/flags) for `context`,\n--- in the background (ETag aware, a 429's Retry-After respected), never during this call; lookups answer from\n--- the copy kept in the active container. A lookup in another context gets STATIC flags from the copy and the\n--- caller's default for the others (reason STALE, error PROVIDER_NOT_READY). `refresh`: seconds between\n--- fetches; `timeout`: seconds per fetch (default 10).\n---@param options {url: string, context: table<string, any>?, name: string?, refresh: number?, timeout: number?, headers: table<string, string>?}\n---@return tweak.Provider",
            "remote": "--- Tweaks fetched over HTTP (ETag aware) in the background, never during this call; until the first\n--- answer lands, lookups answer from the copy kept in the active container. `refresh`: seconds between\n--- fetches (default: only at start-up and after each switch); `timeout`: seconds per fetch (default 10).\n---@param options {url: string, name: string?, refresh: number?, timeout: number?, headers: table<string, string>?}\n---@return tweak.Provider",
            "provider": "--- A provider written in Lua, optionally with its own decryptor. A `get` that declares a third parameter\n--- receives the lookup's evaluation context and is never cached.\n---@param options {name: string, get: fun(feature: string, variable: string, ctx: tweak.Context?): (tweak.Value|table|nil), list: (fun(): table[])?, decryptor: (fun(tweak: tweak.Tweak): tweak.Value)?}\n---@return tweak.Provider",
            "get": "--- The value and how it was chosen (source, reason, variant, metadata); nil when no provider has it, and\n--- nil with the reason when the flag's provider leaves it to the caller's default (disabled, no default variant).\n---@param feature string\n---@param variable string\n---@param ctx? tweak.Context merged over `with_context`'s\n---@return tweak.Value? value\n---@return (tweak.Info|tweak.Defaulted)? info",
            "value": "--- The value, or `default` when no provider has it or its provider leaves it to the default (another type is an error).\n---@param feature string\n---@param variable string\n---@param default tweak.Value?\n---@param ctx? tweak.Context merged over `with_context`'s\n---@return tweak.Value?",
            "enabled": "--- Whether a feature flag is on; false when missing.\n---@param feature string\n---@param ctx? tweak.Context\n---@return boolean",
            "with_context": "--- Calls `fn` with `ctx` merged over the evaluation context in force: every lookup inside it evaluates in it.\n--- Returns what `fn` returns.\n---@param ctx tweak.Context\n---@param fn fun(): ...\n---@return ...",
            "set": "--- Sets a value in the highest mutable provider (or the one named).\n---@param feature string\n---@param variable string\n---@param value tweak.Value\n---@param provider? string",
            "delete": "--- Removes a value from the highest mutable provider (or the one named).\n---@param feature string\n---@param variable string\n---@param provider? string",
            "list": "--- Every tweak of the stack, and the failures met listing them.\n---@return tweak.Tweak[] tweaks\n---@return string[] failures",
            "explain": "--- How the stack answers a tweak: every provider from the highest, what it answered or why it passed (outcome `missing`, `failed`, `answered`, `shadowed` or `unopened`), and the answer.\n---@param feature string\n---@param variable string\n---@return {feature: string, variable: string, answer: tweak.Tweak?, steps: {provider: string, outcome: string, value: tweak.Value?, sealed: boolean, error: string?, opened_by: string?, key_id: string?}[]}",
            "list_overrides": "--- The overrides of the active container, highest provider first, sorted by feature and variable.\n---@return tweak.Tweak[]",
            "delete_all_overrides": "--- Removes every override of the active container at once (one change notification); returns how many there were.\n---@return integer",
            "decryptor": "--- Decrypts the `Encrypted` values of every provider; nil removes it.\n---@param decrypt (fun(tweak: tweak.Tweak): tweak.Value)?",
            "cipher": "--- The built-in cipher: opens every `Encrypted` value sealed by `envscript tweak seal` (es1:KEY-ID:...), with the\n--- keys of `key_file` (outside the home; mode 600 unless it holds demo keys only) after those the host passes in;\n--- the last key seals. A hand-written decryptor still opens the other values. `false` removes it.\n---@param options? {key_file: string?}|false\n---@return tweak.Cipher?",
            "cache": "--- Turns the lookup cache on or off.\n---@param on boolean",
            "reset_cache": "--- Empties the lookup cache.",
            "on_change": "--- Runs after every change of a tweak.\n---@param handler fun(tweak: tweak.Tweak)\n---@return envscript.Handle",
        ]),
        "state": ("Application state under explicit keys, in the active container.", [
            "memory": "--- Declares state kept in memory; returns its value.\n---@param key string\n---@param initial state.Value\n---@return state.Value",
            "stored": "--- Declares state kept in the container's preferences.\n---@param key string\n---@param initial state.Value\n---@return state.Value",
            "file": "--- Declares state kept in a JSON file of the container.\n---@param key string\n---@param initial state.Value\n---@return state.Value",
            "secure": "--- Declares state encrypted at rest (AES-GCM, key outside the containers).\n---@param key string\n---@param initial? state.Value\n---@return state.Value",
            "get": "--- The value of a declared key.\n---@param key string\n---@return state.Value",
            "set": "--- Sets a declared key.\n---@param key string\n---@param value state.Value",
            "reset": "--- Sets a key back to its initial value.\n---@param key string",
            "reset_all": "--- Sets every key back to its initial value.",
            "keys": "--- The declared keys, in order.\n---@return string[]",
        ]),
        "dependency": ("Lazily made services, with scoped overrides.", [
            "register": "--- Registers a factory, made on first use (per container with scope 'container').\n---@param name string\n---@param factory fun(): any\n---@param options? {scope: 'application'|'container'}",
            "get": "--- The dependency (made on first use).\n---@param name string\n---@return any",
            "is_registered": "--- Whether a dependency is registered.\n---@param name string\n---@return boolean",
            "override": "--- Replaces a dependency while `fn` runs, undone afterwards (also on error); returns what `fn` returns.\n---@param name string\n---@param value any\n---@param fn fun(...): ...\n---@param ... any arguments for fn\n---@return ...",
        ]),
        "crypto": ("What decryptors of secret values need (swift-crypto).", [
            "base64_encode": "--- Base64 of a string.\n---@param data string\n---@return string",
            "base64_decode": "--- The bytes of base64 text.\n---@param text string\n---@return string",
            "sha256": "--- The SHA-256 digest, in hex.\n---@param data string\n---@return string",
            "aes_gcm_seal": "--- Encrypts with AES-GCM; returns base64 of nonce, ciphertext and tag.\n---@param key string base64 of 16, 24 or 32 bytes\n---@param plaintext string\n---@return string",
            "aes_gcm_open": "--- Decrypts what aes_gcm_seal made; fails clearly with a wrong key.\n---@param key string base64 of 16, 24 or 32 bytes\n---@param sealed string\n---@return string",
        ]),
    ]

    /// The scenario globals of `envscript run`.
    static let scenarios = """
        ---@meta
        -- Scenario globals of `envscript run`: busted's declarations, luassert's assert, spies, stubs,
        -- mocks and matchers (see "Scenarios: busted and luassert" in the command-line guide, CommandLineTool.md).

        --- Declares a group of tests; its body runs when the run reaches it, after the tests before it (as in busted).
        ---@param name string
        ---@param body fun()
        function describe(name, body) end
        context = describe

        --- A group whose changes to the globals are undone when it is left.
        ---@param name string
        ---@param body fun()
        function insulate(name, body) end

        --- A group whose changes to the globals outlive the insulation around it.
        ---@param name string
        ---@param body fun()
        function expose(name, body) end

        --- Declares a test; `#tag` words in its name are tags (`--tags`, `--exclude-tags`).
        ---@param name string
        ---@param body fun()
        function it(name, body) end

        --- Declares a test still to write; it is reported as skipped.
        ---@param name string
        function pending(name) end

        --- Runs before each test of the enclosing block (outer hooks first).
        ---@param hook fun()
        function before_each(hook) end

        --- Runs after each test of the enclosing block, even a failed one (inner hooks first).
        ---@param hook fun()
        function after_each(hook) end

        --- Runs when the block is entered (before its first selected test).
        ---@param hook fun()
        function setup(hook) end
        strict_setup = setup

        --- Runs when the block is left.
        ---@param hook fun()
        function teardown(hook) end
        strict_teardown = teardown

        --- Runs before the first test of the block that runs, if one does.
        ---@param hook fun()
        function lazy_setup(hook) end

        --- Runs when the block is left, if one of its tests ran.
        ---@param hook fun()
        function lazy_teardown(hook) end

        --- Inside `it` (only there, as in busted): runs after the test's body, failed or not.
        ---@param fn fun()
        function finally(fn) end

        --- Shuffles the tests and blocks of the enclosing block (or file), as busted does:
        --- `randomize()`, `randomize(seed)`, `randomize(true, seed)`; `randomize(false)` turns it off.
        ---@param on_or_seed? boolean|integer
        ---@param seed? integer
        function randomize(on_or_seed, seed) end
        spec = it
        test = it

        --- luassert's assert: assertions through chains of words (`assert.are.same`, `assert.is_not.equal`,
        --- `assert.has_no.errors`, `assert.equals.Not`, `assert.spy(s).was.called.at_least(2)`), the words
        --- split at `_` and read case-insensitively (`assert.is.Not.Nil`). Called, it is Lua's assert, with
        --- `assert:level(n)` as an optional third argument. Each assertion takes a custom message after its
        --- own arguments and returns its arguments (`has_error`: the error caught; `matches`: the captures).
        ---@class scenario.assert
        ---@overload fun(value: any, message?: any, level?: any, ...): any
        ---@field is scenario.assert
        ---@field are scenario.assert
        ---@field is_not scenario.assert
        ---@field are_not scenario.assert
        ---@field has scenario.assert
        ---@field has_no scenario.assert
        ---@field does scenario.assert
        ---@field does_not scenario.assert
        ---@field was scenario.assert
        ---@field was_not scenario.assert
        ---@field no scenario.assert
        ---@field Not scenario.assert
        assert = {}

        --- `expected == actual`.
        ---@param expected any
        ---@param actual any
        ---@param message? any
        function assert.equal(expected, actual, message) end
        assert.equals = assert.equal

        --- Deeply equal values; a failure marks the path to the first difference with `*`.
        ---@param expected any
        ---@param actual any
        ---@param message? any
        function assert.same(expected, actual, message) end

        ---@param value any
        ---@param message? any
        function assert.truthy(value, message) end

        ---@param value any
        ---@param message? any
        function assert.falsy(value, message) end

        ---@param value any
        ---@param message? any
        function assert.is_true(value, message) end

        ---@param value any
        ---@param message? any
        function assert.is_false(value, message) end

        ---@param value any
        ---@param message? any
        function assert.is_nil(value, message) end

        ---@param value any
        ---@param message? any
        function assert.is_not_nil(value, message) end

        ---@param expected number|string
        ---@param actual number|string
        ---@param tolerance number|string
        ---@param message? any
        function assert.near(expected, actual, tolerance, message) end

        --- Returns the captures (or the pattern, for a plain find).
        ---@param pattern string
        ---@param actual string|number
        ---@param init? integer
        ---@param plain? boolean
        ---@param message? any
        ---@return ...
        function assert.matches(pattern, actual, init, plain, message) end
        assert.has_match = assert.matches

        --- The function (or callable table) raises an error (equal to `expected`, without its position,
        --- when given). Returns the error caught and `expected`.
        ---@param fn function|table
        ---@param expected? any
        ---@param message? any
        ---@return any, any
        function assert.has_error(fn, expected, message) end

        --- The error raised matches `pattern`; returns its captures.
        ---@param fn function|table
        ---@param pattern string
        ---@param init? integer
        ---@param plain? boolean
        ---@param message? any
        ---@return ...
        function assert.error_matches(fn, pattern, init, plain, message) end

        ---@param list table
        ---@param deep? boolean
        ---@param message? any
        function assert.unique(list, deep, message) end

        --- The count of values after `count` is `count`.
        ---@param count integer
        function assert.returned_arguments(count, ...) end

        --- A custom message put before the failure of the assertion that follows.
        ---@param text any
        ---@return scenario.assert
        function assert.message(text) end

        --- Assertions about a spy's calls: `.was.called(n)`, `.was.called.at_least(n)`,
        --- `.was.called_with(...)`, `.was.returned_with(...)`; `message` goes before a failure.
        ---@param s scenario.spy
        ---@param message? any
        ---@return scenario.assert
        function assert.spy(s, message) end
        assert.stub = assert.spy

        --- `assert.array(t).has.no.holes([length])`; `holes` returns the first missing index.
        ---@param t table
        ---@return scenario.assert
        function assert.array(t) end

        --- Adds an assertion, matcher or modifier: `callback(state, arguments, level)`; the messages are
        --- `say` keys (`require("say"):set(key, text)`).
        ---@param namespace "assertion"|"matcher"|"modifier"
        ---@param name string
        ---@param callback function
        ---@param positive_message? string
        ---@param negative_message? string
        function assert:register(namespace, name, callback, positive_message, negative_message) end
        ---@param namespace "assertion"|"matcher"|"modifier"
        ---@param name string
        function assert:unregister(namespace, name) end
        --- A formatter shows a value in failure messages (nil: not mine); the newest is asked first.
        ---@param formatter fun(value: any, extra?: table): string?
        function assert:add_formatter(formatter) end
        ---@param formatter function
        function assert:remove_formatter(formatter) end
        --- Formats `args[1..args.n]` in place.
        ---@param args table
        ---@return table
        function assert:format(args) end
        --- "TableFormatLevel", "TableFormatShowRecursion", "TableErrorHighlightCharacter",
        --- "TableErrorHighlightColor", or one of the user's.
        ---@param name string
        ---@param value any
        function assert:set_parameter(name, value) end
        ---@param name string
        ---@return any
        function assert:get_parameter(name) end
        --- A level of the assert state: its `revert()` undoes the formatters, parameters and spies since.
        ---@return { revert: fun(self), previous: table?, next: table? }
        function assert:snapshot() end
        ---@param level integer
        ---@return table
        function assert:level(level) end
        ---@return integer?
        function assert:get_level(value) end

        ---@class scenario.call
        ---@field vals table the values as they were (deep copies), with `n`
        ---@field refs table the values themselves, with `n`

        ---@class scenario.spy
        ---@overload fun(...): ...
        ---@field calls scenario.call[]
        ---@field returnvals scenario.call[]
        ---@field callback function
        local scenario_spy = {}
        --- Puts back what was replaced; returns it (a stub: the original value, maybe nil).
        ---@return any
        function scenario_spy:revert() end
        ---@return scenario.spy
        function scenario_spy:clear() end

        ---@class scenario.stub: scenario.spy
        --- The stub answers these values (call with a dot: `stub(t, k).returns(v)`).
        ---@field returns fun(...): scenario.stub
        --- The stub calls `fn` with the arguments (call with a dot).
        ---@field invokes fun(fn: function|table): scenario.stub
        ---@field by_default { returns: fun(...): scenario.stub, invokes: fun(fn: function|table): scenario.stub }
        --- Answers for calls whose arguments match (values or matchers).
        ---@field on_call_with fun(...): { returns: fun(...): scenario.stub, invokes: fun(fn: function|table): scenario.stub }

        ---@class scenario.spy_module
        ---@overload fun(fn?: function|table): scenario.spy
        spy = {}
        ---@param fn? function|table
        ---@return scenario.spy
        function spy.new(fn) end
        --- Replaces `target[key]` with a spy that calls through to it.
        ---@param target table
        ---@param key any
        ---@return scenario.spy
        function spy.on(target, key) end
        ---@return boolean
        function spy.is_spy(value) end

        --- Replaces `target[key]` with a stub answering `...`, or calling the one function given;
        --- `stub.new()` makes a blank one.
        ---@class scenario.stub_module
        ---@overload fun(target?: table, key?: any, ...): scenario.stub
        stub = {}
        ---@return scenario.stub
        function stub.new(target, key, ...) end

        --- Spies on (or, with `stubbed`, stubs) every function of a table, nested tables included.
        ---@class scenario.mock_module
        ---@overload fun(target: table, stubbed?: boolean): table
        mock = {}
        ---@param target table
        function mock.revert(target) end
        --- Forgets the calls of every spy in `target`.
        ---@param target table
        function mock.clear(target) end

        --- Argument matchers, callable (`match.is_string()("x")`) and chained like assertions:
        --- `match._`, `match.is_string()`, `match.is.Not.Nil()`, `match.equals(v)`, `match.same(v)`,
        --- `match.matches(pattern)`, `match.near(v, tolerance)`, `match.unique()`, `match.is_ref(v)`,
        --- `match.all_of(...)`, `match.any_of(...)`, `match.none_of(...)`.
        ---@type table<string, any>
        match = {}
        """

    /// The names the scenario definitions declare, checked against the globals the prelude defines.
    static let scenarioGlobals = [
        "describe", "context", "insulate", "expose", "it", "spec", "test", "pending", "before_each", "after_each",
        "setup", "teardown", "strict_setup", "strict_teardown", "lazy_setup", "lazy_teardown", "randomize", "assert",
        "spy", "stub", "mock", "match",
    ]

    /// Names the scenario definitions declare that exist only while a test runs, as in busted.
    static let testGlobals = ["finally"]
}
