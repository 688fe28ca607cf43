---@meta dependency
-- Lazily made services, with scoped overrides.

---@class dependency
dependency = {}

--- Registers a factory, made on first use (per container with scope 'container').
---@param name string
---@param factory fun(): any
---@param options? {scope: 'application'|'container'}
function dependency.register(name, factory, options) end

--- The dependency (made on first use).
---@param name string
---@return any
function dependency.get(name) end

--- Whether a dependency is registered.
---@param name string
---@return boolean
function dependency.is_registered(name) end

--- Replaces a dependency while `fn` runs, undone afterwards (also on error); returns what `fn` returns.
---@param name string
---@param value any
---@param fn fun(...): ...
---@param ... any arguments for fn
---@return ...
function dependency.override(name, value, fn, ...) end

return dependency
