-- The declarations of busted: `describe` (and `context`), `insulate`, `expose`, `it`, `pending`,
-- `before_each`, `after_each`, `setup`/`teardown` (strict: they run when the block is entered and
-- left), `lazy_setup`/`lazy_teardown` (only around a block where a test runs), `strict_setup`,
-- `strict_teardown`, and `finally(fn)` inside a test.
--
-- Loading a file only collects: describe bodies run at once, `it` records its function. The runner
-- (ScenarioRunner.swift) then enters and leaves the blocks around the tests it runs through the
-- functions this chunk returns, each call its own entry into Lua.
--
-- Globals: each scenario file, and each `insulate` block, is insulated (a plain script, which declares
-- nothing, is not): what it sets in `_G` and
-- `loaded_modules` — while it loads and while its tests run — is undone when it is left. An
-- `expose` block's changes outlive the insulation around it.
-- The modules `require` has loaded, when the sandbox shows them (it may not: then only globals are
-- insulated).
local loaded_modules = rawget(_G, "package") and package.loaded or {}

local blocks = {}
local function new_block(parent, name, kind)
  local names = {}
  if parent then for i, n in ipairs(parent.names) do names[i] = n end end
  if name then names[#names + 1] = name end
  local block = {
    id = #blocks + 1, parent = parent, names = names, kind = kind, children = {},
    before = {}, after = {}, setup = {}, teardown = {}, lazy_setup = {}, lazy_teardown = {},
  }
  blocks[block.id] = block
  return block
end

local collector = {}

-- A snapshot of the globals and loaded modules, to undo what happens after it.
local function snapshot()
  local globals, loaded = {}, {}
  for k, v in pairs(_G) do globals[k] = v end
  for k, v in pairs(loaded_modules) do loaded[k] = v end
  return { globals = globals, loaded = loaded }
end

-- What changed in `t` since `before`: keys to values (`false` marks a removal, kept apart).
local function changes(t, before)
  local set, removed = {}, {}
  for k, v in pairs(t) do if before[k] ~= v then set[k] = v end end
  for k in pairs(before) do if rawget(t, k) == nil then removed[k] = true end end
  return { set = set, removed = removed }
end

local function restore(t, before)
  for k in pairs(t) do if before[k] == nil then rawset(t, k, nil) end end
  for k, v in pairs(before) do if rawget(t, k) ~= v then rawset(t, k, v) end end
end

local function apply(t, diff)
  for k in pairs(diff.removed) do rawset(t, k, nil) end
  for k, v in pairs(diff.set) do rawset(t, k, v) end
end

local function is_insulated(block) return block.kind == "file" or block.kind == "insulate" end

-- Begins a block's declaration; an insulated block remembers what its body changes.
local function tracks(block) return is_insulated(block) or block.kind == "expose" end

-- Carries an `expose` block's changes (since `shot`) into the snapshots of the insulated blocks
-- around it, so that undoing those blocks keeps them.
local function expose_changes(block, shot, field)
  local globals, loaded = changes(_G, shot.globals), changes(loaded_modules, shot.loaded)
  local outer = block.parent
  while outer do
    local outer_shot = outer[field]
    if outer_shot then
      apply(outer_shot.globals, globals)
      apply(outer_shot.loaded, loaded)
    end
    outer = outer.parent
  end
end

local function open(block)
  if tracks(block) then block.load_snapshot = snapshot() end
  collector.current = block
end

local function close(block)
  local shot = block.load_snapshot
  if shot and is_insulated(block) then
    block.load_changes = { globals = changes(_G, shot.globals), loaded = changes(loaded_modules, shot.loaded) }
    restore(_G, shot.globals)
    restore(loaded_modules, shot.loaded)
  elseif shot then
    expose_changes(block, shot, "load_snapshot")
  end
  block.load_snapshot = nil
  collector.current = block.parent
end

local function start_file()
  local root = new_block(nil, nil, "file")
  collector.root = root
  open(root)
end

local function check_name(fname, name, fn, needs_fn)
  if type(name) ~= "string" then
    error(("bad argument #1 to '%s' (string expected, got %s)"):format(fname, type(name)), 3)
  end
  if needs_fn and type(fn) ~= "function" then
    error(("bad argument #2 to '%s' (function expected, got %s)"):format(fname, type(fn)), 3)
  end
end

local function declare_block(kind)
  return function(name, fn)
    check_name(kind, name, fn, true)
    local parent = collector.current
    local block = new_block(parent, name, kind)
    parent.children[#parent.children + 1] = { block = block }
    open(block)
    local ok, err = pcall(fn)
    close(block)
    if not ok then error(err, 0) end
  end
end
describe = declare_block("describe")
context = describe
insulate = declare_block("insulate")
expose = declare_block("expose")

function it(name, fn)
  check_name("it", name, fn, true)
  local parent = collector.current
  parent.children[#parent.children + 1] = { test = { name = name, fn = fn } }
end
spec = it
test = it

function pending(name)
  check_name("pending", name, nil, false)
  local parent = collector.current
  parent.children[#parent.children + 1] = { test = { name = name, pending = true } }
end

local function hook(list_name, fname)
  return function(fn)
    if type(fn) ~= "function" then error(("bad argument #1 to '%s' (function expected)"):format(fname), 2) end
    table.insert(collector.current[list_name], fn)
  end
end
before_each = hook("before", "before_each")
after_each = hook("after", "after_each")
setup = hook("setup", "setup")
teardown = hook("teardown", "teardown")
strict_setup = hook("setup", "strict_setup")
strict_teardown = hook("teardown", "strict_teardown")
lazy_setup = hook("lazy_setup", "lazy_setup")
lazy_teardown = hook("lazy_teardown", "lazy_teardown")

-- `finally` callbacks of the test that is running; nil outside a test.
local finals

function finally(fn)
  if type(fn) ~= "function" then error("bad argument #1 to 'finally' (function expected)", 2) end
  if finals == nil then error("finally can only be called inside a test (it)", 2) end
  finals[#finals + 1] = fn
end

-- A small generator of its own, so that a seed gives the same order on every machine and the
-- script's own math.random is left alone.
local function shuffler(seed)
  local state = seed % 2147483647
  if state <= 0 then state = state + 2147483646 end
  return function(list)
    for i = #list, 2, -1 do
      state = state * 16807 % 2147483647
      local j = state % i + 1
      list[i], list[j] = list[j], list[i]
    end
  end
end

-- Every test with its hooks and the blocks around it (outermost first), in order.
local function flatten(block, before, after, chain, out, shuffle)
  local befores, afters = {}, {}
  for _, f in ipairs(before) do befores[#befores + 1] = f end
  for _, f in ipairs(block.before) do befores[#befores + 1] = f end
  for _, f in ipairs(block.after) do afters[#afters + 1] = f end
  for _, f in ipairs(after) do afters[#afters + 1] = f end
  local ids = {}
  for i, id in ipairs(chain) do ids[i] = id end
  ids[#ids + 1] = block.id
  local children = block.children
  if shuffle then
    children = {}
    for i, child in ipairs(block.children) do children[i] = child end
    shuffle(children)
  end
  for _, child in ipairs(children) do
    if child.block then
      flatten(child.block, befores, afters, ids, out, shuffle)
    else
      local names = {}
      for i, n in ipairs(block.names) do names[i] = n end
      names[#names + 1] = child.test.name
      out[#out + 1] = { names = names, fn = child.test.fn, pending = child.test.pending == true,
                        before = befores, after = afters, blocks = ids }
    end
  end
  return out
end

local api = {}

--- Starts collecting the first file. Called once everything the scripts see is defined, since what a
--- file changes in the globals is measured from here.
api.reset = start_file

--- The tests the file just loaded declared (shuffled within their blocks with `seed`, if given); the
--- next file starts afresh.
function api.collect(seed)
  local root = collector.root
  -- A plain script (one that declared nothing) is not insulated: the scripts after it see its globals.
  if not api.declared() then root.load_snapshot = nil end
  close(root)
  local tests = flatten(root, {}, {}, {}, {}, seed and shuffler(seed) or nil)
  start_file()
  return tests
end

--- Whether the file being loaded has declared anything: an error then is a scenario load error.
function api.declared()
  local root = collector.root
  return #root.children > 0 or #root.before > 0 or #root.after > 0 or #root.setup > 0
    or #root.teardown > 0 or #root.lazy_setup > 0 or #root.lazy_teardown > 0
end

local function run_all(list, what)
  for _, fn in ipairs(list) do
    local ok, err = pcall(fn)
    if not ok then error(what .. " failed: " .. tostring(err), 0) end
  end
end

--- Enters block `id` before the first of its tests runs: restores what it set while loading (when
--- insulated) and runs its strict setups.
function api.enter(id)
  local block = blocks[id]
  if tracks(block) then block.run_snapshot = snapshot() end
  if is_insulated(block) and block.load_changes then
    apply(_G, block.load_changes.globals)
    apply(loaded_modules, block.load_changes.loaded)
  end
  block.started = false
  block.lazy_error = nil
  run_all(block.setup, "setup")
end

--- Runs the lazy setups of block `id` once, before the first test in it that runs.
function api.start(id)
  local block = blocks[id]
  if block.lazy_error then error(block.lazy_error, 0) end
  if block.started then return end
  block.started = true
  local ok, err = pcall(run_all, block.lazy_setup, "lazy_setup")
  if not ok then
    block.lazy_error = err
    error(err, 0)
  end
end

--- Leaves block `id`: its lazy teardowns (when a test ran in it), its strict teardowns, then undoes
--- its globals when insulated (an `expose` block's changes are kept by the insulation around it).
function api.leave(id)
  local block = blocks[id]
  local ok, err = true, nil
  if block.started then ok, err = pcall(run_all, block.lazy_teardown, "lazy_teardown") end
  block.started = false
  block.lazy_error = nil
  local ok2, err2 = pcall(run_all, block.teardown, "teardown")
  local shot = block.run_snapshot
  block.run_snapshot = nil
  if shot and is_insulated(block) then
    restore(_G, shot.globals)
    restore(loaded_modules, shot.loaded)
  elseif shot then
    expose_changes(block, shot, "run_snapshot")
  end
  if not ok then error(err, 0) end
  if not ok2 then error(err2, 0) end
end

--- The names of block `id` (for a teardown's failure).
function api.names(id) return blocks[id].names end

--- Called around each test body: `begin` opens its `finally` list, `finish` runs it.
function api.begin() finals = {} end
function api.finish()
  local list = finals or {}
  finals = nil
  for i = #list, 1, -1 do
    local ok, err = pcall(list[i])
    if not ok then error("finally failed: " .. tostring(err), 0) end
  end
end

return api
