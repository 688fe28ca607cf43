---@meta
-- Shapes of the values the host modules take and return.

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
