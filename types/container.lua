---@meta container
-- Switchable environments of the application's home.

---@class container
container = {}

--- Every container, DEFAULT first, and those whose record cannot be used (see `envscript container doctor`).
---@return container.Info[] containers
---@return container.Damaged[] damaged
function container.list() end

--- The active container.
---@return container.Info
function container.active() end

--- A container by name or UUID, or nil.
---@param name_or_uuid string
---@return container.Info?
function container.get(name_or_uuid) end

--- Creates an empty container; it does not become active.
---@param name string
---@param options? {description: string?}
---@return container.Info
function container.create(name, options) end

--- Switches the home to a container, running the hooks around it.
---@param name_or_uuid string
---@return container.Info
function container.activate(name_or_uuid) end

--- Deletes a container (the active one switches to DEFAULT first).
---@param name_or_uuid string
function container.delete(name_or_uuid) end

--- Empties a container's data.
---@param name_or_uuid string
function container.clean(name_or_uuid) end

--- Copies a container into a new one.
---@param name_or_uuid string
---@param new_name string
---@param options? {description: string?}
---@return container.Info
function container.clone(name_or_uuid, new_name, options) end

--- Renames a container or changes its description.
---@param name_or_uuid string
---@param changes {name: string?, description: string?}
---@return container.Info
function container.update(name_or_uuid, changes) end

--- Writes a container to a zip archive (files, links, metadata, a manifest with SHA-256s).
---@param name_or_uuid string
---@param path string
---@return {path: string, entries: integer}
function container.export(name_or_uuid, path) end

--- Creates a container from an archive written by `export`, after checking every entry.
---@param path string
---@param options? {name: string?, max_size: integer?, max_files: integer?}
---@return container.Info
function container.import(path, options) end

--- What differs between two containers, or a container and an archive (by path).
---@param first string a name, UUID or archive path
---@param second string a name, UUID or archive path
---@return container.Diff
function container.diff(first, second) end

--- Activates DEFAULT and removes every other container.
function container.reset() end

--- Paths (matched by whole components) that stay in the live home across switches.
---@param paths string|string[]
function container.exclude(paths) end

--- Runs before every switch; an error cancels it with nothing changed.
---@param hook fun(to: container.Info, from: container.Info?)
---@return envscript.Handle
function container.on_will_change(hook) end

--- Runs after every switch.
---@param hook fun(to: container.Info, from: container.Info?)
---@return envscript.Handle
function container.on_did_change(hook) end

return container
