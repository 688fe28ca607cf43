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

---@class envscript.Handle
local Handle = {}
--- Unregisters the handler; calling it again does nothing.
function Handle:remove() end

---@class tweak.Provider
local Provider = {}
--- The provider's name, as lookups report it in `source`.
---@return string
function Provider:name() end

---@alias tweak.Value boolean|number|string

---@class tweak.Tweak
---@field feature string
---@field variable string
---@field value tweak.Value
---@field source string
---@field encrypted boolean
---@field title string?
---@field description string?
---@field group string?

---@class tweak.Info: tweak.Tweak
---@field failures string[] providers above the source that failed

---@alias state.Value nil|boolean|number|string|table
