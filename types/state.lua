---@meta state
-- Application state under explicit keys, in the active container.

---@class state
state = {}

--- Declares state kept in memory; returns its value.
---@param key string
---@param initial state.Value
---@return state.Value
function state.memory(key, initial) end

--- Declares state kept in the container's preferences.
---@param key string
---@param initial state.Value
---@return state.Value
function state.stored(key, initial) end

--- Declares state kept in a JSON file of the container.
---@param key string
---@param initial state.Value
---@return state.Value
function state.file(key, initial) end

--- Declares state encrypted at rest (AES-GCM, key outside the containers).
---@param key string
---@param initial? state.Value
---@return state.Value
function state.secure(key, initial) end

--- The value of a declared key.
---@param key string
---@return state.Value
function state.get(key) end

--- Sets a declared key.
---@param key string
---@param value state.Value
function state.set(key, value) end

--- Sets a key back to its initial value.
---@param key string
function state.reset(key) end

--- Sets every key back to its initial value.
function state.reset_all() end

--- The declared keys, in order.
---@return string[]
function state.keys() end

return state
