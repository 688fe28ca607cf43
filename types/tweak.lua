---@meta tweak
-- Feature flags over a stack of providers.

---@class tweak
tweak = {}

--- Sets the providers, highest priority first.
---@param providers tweak.Provider[]
function tweak.stack(providers) end

--- The mutable overrides stored in the active container.
---@param name? string
---@return tweak.Provider
function tweak.overrides(name) end

--- Tweaks from a JSON file in JustTweak's format.
---@param path string
---@param name? string
---@return tweak.Provider
function tweak.json(path, name) end

--- Flags from a flagd flag-definition file: variants, a default variant, JsonLogic targeting with flagd's
--- `fractional`, `sem_ver`, `starts_with` and `ends_with`, `$evaluators`, metadata; evaluated in each lookup's
--- context, in Swift. The file is read again when it changes. `invalid_rules`: `fail_evaluation` (default: loaded as
--- flagd does; a flag whose rule cannot be evaluated, or that is wrong itself (no variants), answers PARSE_ERROR,
--- and a warning names its line) or `refuse_file` (such a flag refuses the file, naming its line and flag).
---@param path string
---@param options? string|{name: string?, invalid_rules: ('refuse_file'|'fail_evaluation')?}
---@return tweak.Provider
function tweak.flagd(path, options) end

--- Tweaks kept in memory: {feature = {variable = value}}.
---@param values? table<string, table<string, tweak.Value>>
---@param name? string
---@return tweak.Provider
function tweak.ephemeral(values, name) end

--- A provider written in Lua, optionally with its own decryptor. A `get` that declares a third parameter
--- receives the lookup's evaluation context and is never cached.
---@param options {name: string, get: fun(feature: string, variable: string, ctx: tweak.Context?): (tweak.Value|table|nil), list: (fun(): table[])?, decryptor: (fun(tweak: tweak.Tweak): tweak.Value)?}
---@return tweak.Provider
function tweak.provider(options) end

--- Tweaks fetched over HTTP (ETag aware) in the background, never during this call; until the first
--- answer lands, lookups answer from the copy kept in the active container. `refresh`: seconds between
--- fetches (default: only at start-up and after each switch); `timeout`: seconds per fetch (default 10).
---@param options {url: string, name: string?, refresh: number?, timeout: number?, headers: table<string, string>?}
---@return tweak.Provider
function tweak.remote(options) end

--- Flags an OFREP service evaluates: a bulk evaluation (POST `url`/ofrep/v1/evaluate/flags) for `context`,
--- in the background (ETag aware, a 429's Retry-After respected), never during this call; lookups answer from
--- the copy kept in the active container. A lookup in another context gets STATIC flags from the copy and the
--- caller's default for the others (reason STALE, error PROVIDER_NOT_READY). `refresh`: seconds between
--- fetches; `timeout`: seconds per fetch (default 10).
---@param options {url: string, context: table<string, any>?, name: string?, refresh: number?, timeout: number?, headers: table<string, string>?}
---@return tweak.Provider
function tweak.ofrep(options) end

--- The value and how it was chosen (source, reason, variant, metadata); nil when no provider has it, and
--- nil with the reason when the flag's provider leaves it to the caller's default (disabled, no default variant).
---@param feature string
---@param variable string
---@param ctx? tweak.Context merged over `with_context`'s
---@return tweak.Value? value
---@return (tweak.Info|tweak.Defaulted)? info
function tweak.get(feature, variable, ctx) end

--- The value, or `default` when no provider has it or its provider leaves it to the default (another type is an error).
---@param feature string
---@param variable string
---@param default tweak.Value?
---@param ctx? tweak.Context merged over `with_context`'s
---@return tweak.Value?
function tweak.value(feature, variable, default, ctx) end

--- Whether a feature flag is on; false when missing.
---@param feature string
---@param ctx? tweak.Context
---@return boolean
function tweak.enabled(feature, ctx) end

--- Calls `fn` with `ctx` merged over the evaluation context in force: every lookup inside it evaluates in it.
--- Returns what `fn` returns.
---@param ctx tweak.Context
---@param fn fun(): ...
---@return ...
function tweak.with_context(ctx, fn) end

--- Every tweak of the stack, and the failures met listing them.
---@return tweak.Tweak[] tweaks
---@return string[] failures
function tweak.list() end

--- How the stack answers a tweak: every provider from the highest, what it answered or why it passed (outcome `missing`, `failed`, `answered`, `shadowed` or `unopened`), and the answer.
---@param feature string
---@param variable string
---@return {feature: string, variable: string, answer: tweak.Tweak?, steps: {provider: string, outcome: string, value: tweak.Value?, sealed: boolean, error: string?, opened_by: string?, key_id: string?}[]}
function tweak.explain(feature, variable) end

--- Sets a value in the highest mutable provider (or the one named).
---@param feature string
---@param variable string
---@param value tweak.Value
---@param provider? string
function tweak.set(feature, variable, value, provider) end

--- Removes a value from the highest mutable provider (or the one named).
---@param feature string
---@param variable string
---@param provider? string
function tweak.delete(feature, variable, provider) end

--- The overrides of the active container, highest provider first, sorted by feature and variable.
---@return tweak.Tweak[]
function tweak.list_overrides() end

--- Removes every override of the active container at once (one change notification); returns how many there were.
---@return integer
function tweak.delete_all_overrides() end

--- Turns the lookup cache on or off.
---@param on boolean
function tweak.cache(on) end

--- Empties the lookup cache.
function tweak.reset_cache() end

--- Runs after every change of a tweak.
---@param handler fun(tweak: tweak.Tweak)
---@return envscript.Handle
function tweak.on_change(handler) end

--- Decrypts the `Encrypted` values of every provider; nil removes it.
---@param decrypt (fun(tweak: tweak.Tweak): tweak.Value)?
function tweak.decryptor(decrypt) end

--- The built-in cipher: opens every `Encrypted` value sealed by `envscript tweak seal` (es1:KEY-ID:...), with the
--- keys of `key_file` (outside the home; mode 600 unless it holds demo keys only) after those the host passes in;
--- the last key seals. A hand-written decryptor still opens the other values. `false` removes it.
---@param options? {key_file: string?}|false
---@return tweak.Cipher?
function tweak.cipher(options) end

return tweak
