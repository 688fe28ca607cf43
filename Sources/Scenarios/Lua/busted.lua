-- busted's runner surface: the declarations (`describe`/`context`, `insulate`, `expose`, `it`/`spec`/
-- `test`, `pending`, `before_each`, `after_each`, `setup`/`teardown` and their `strict_` names,
-- `lazy_setup`/`lazy_teardown`, `randomize`), `finally` and `pending` inside a test, and the module
-- `require 'busted'` returns.
--
-- Loading a file runs its top level, which declares its blocks, tests and hooks; a block's body runs
-- when the run reaches it, as in busted: after the tests before it, inside the blocks around it
-- (their setups done). The runner (ScenarioRunner.swift) walks each file's tree with `walk`/`step`,
-- runs each body it meets with `expand`, and enters and leaves the blocks around the tests it runs,
-- each call its own entry into Lua.
--
-- Where a scenario file's globals live, as busted keeps them. Every file `envscript run` runs has
-- `scope` (below) as its _ENV, a table that stays empty and sends each read and write to where the
-- code running now keeps its globals:
--   * a file's own top level reads `layer` (then `_G`) and writes `_G`, so a plain script is plain Lua;
--   * a block (`describe`...) has a table of its own, read through to the block around it: what its
--     body sets is seen by its tests and inner blocks, never by its siblings;
--   * a test writes into a table of its own, dropped when it ends; a hook writes into its block's;
--   * an `expose` body writes two blocks up (busted's way): past the block around it;
--   * inside a test or a hook the declarations are refused with busted's words.
-- `_G` itself and `package.loaded` (and `_G`'s metatable) are insulated by files and `insulate`
-- blocks: what changes in them while such a block loads or runs is undone when it is left; an `expose`
-- block directly inside one carries its changes past it.
-- luassert's `assert`, spies, stubs, mocks and matchers, and its engine, whose `fail` raises every
-- assertion failure (replaced here so that a test's failures are told from its errors).
local luassert, spy, stub, mock, match, engine = ...

local loaded_modules = rawget(_G, "package") and package.loaded or {}

-- What every scenario file reads before `_G`: luassert's `assert` while a scenario file loads or runs
-- (plain scripts keep Lua's own), and what an `expose` at a file's top level exposed.
local layer = setmetatable({}, { __index = _G })

local scope_meta = { __index = layer, __newindex = _G }
local scope = setmetatable({}, scope_meta)

local function use(read, write)
  scope_meta.__index = read
  scope_meta.__newindex = write
end

local blocks = {}
local collector = {}
-- Set once the tests run: from then on no declaration is taken.
local running = false

local function new_block(parent, name, kind)
  local names = {}
  if parent then for i, n in ipairs(parent.names) do names[i] = n end end
  if name then names[#names + 1] = name end
  local block = {
    id = #blocks + 1, parent = parent, names = names, kind = kind, children = {},
    before = {}, after = {}, setup = {}, teardown = {}, lazy_setup = {}, lazy_teardown = {},
  }
  -- The file's own globals are `_G`'s; a block's are a table of its own over its parent's.
  if parent then
    block.env = setmetatable({}, { __index = parent.env or layer })
  end
  blocks[block.id] = block
  return block
end

-- Where code in `block` reads and writes its globals.
local function reads(block) return block.env or layer end
local function writes(block) return block.env or _G end

local function is_insulated(block) return block.kind == "file" or block.kind == "insulate" end

-- A snapshot of the globals, their metatable and the loaded modules, to undo what happens after it.
local function snapshot()
  local globals, loaded = {}, {}
  for k, v in next, _G do globals[k] = v end
  for k, v in next, loaded_modules do loaded[k] = v end
  return { globals = globals, loaded = loaded, meta = getmetatable(_G) }
end

-- What changed in `t` since `before`: keys to values, and the keys removed.
local function changes(t, before)
  local set, removed = {}, {}
  for k, v in next, t do if before[k] ~= v then set[k] = v end end
  for k in next, before do if rawget(t, k) == nil then removed[k] = true end end
  return { set = set, removed = removed }
end

local function restore(t, before)
  for k in next, t do if before[k] == nil then rawset(t, k, nil) end end
  for k, v in next, before do if rawget(t, k) ~= v then rawset(t, k, v) end end
end

local function apply(t, diff)
  for k in next, diff.removed do rawset(t, k, nil) end
  for k, v in next, diff.set do rawset(t, k, v) end
end

local function set_global_meta(meta)
  if getmetatable(_G) ~= meta then pcall(setmetatable, _G, meta) end
end

local function restore_snapshot(shot)
  restore(_G, shot.globals)
  restore(loaded_modules, shot.loaded)
  set_global_meta(shot.meta)
end

local function changes_since(shot)
  return { globals = changes(_G, shot.globals), loaded = changes(loaded_modules, shot.loaded),
           meta = getmetatable(_G), old_meta = shot.meta }
end

local function apply_changes(diff)
  apply(_G, diff.globals)
  apply(loaded_modules, diff.loaded)
  if diff.meta ~= diff.old_meta then set_global_meta(diff.meta) end
end

-- busted's expose: leaving it, the insulated block right around it takes the state as it is now as
-- the state to go back to, so what the expose did outlives that one block (and no more).
local function carry_exposed(block, field)
  local parent = block.parent
  if parent and is_insulated(parent) and parent[field] then parent[field] = snapshot() end
end

-- Marks the file being loaded as a scenario file: from now on it reads luassert's `assert`.
local function declares()
  -- A block's body runs during the run, in a file already known to declare scenarios.
  if collector.expanding then return end
  local root = collector.root
  if not root.scenario then
    root.scenario = true
    layer.assert = luassert
    -- The file's _ENV becomes `scope` from here on (its functions share the chunk's _ENV).
    if root.enter_scope then root.enter_scope() end
  end
end

local function refuse(fname)
  error(("'%s' not supported inside current context block"):format(fname), 3)
end

-- Sends the globals of the code running now to `block`'s: its body and what it declares.
local function use_block(block)
  if block.kind == "expose" then
    -- busted's expose writes two blocks up: past the block around it.
    local target = block.parent and block.parent.parent
    use(reads(block), target and writes(target) or layer)
  else
    use(reads(block), writes(block))
  end
end

local function open(block)
  if is_insulated(block) then block.load_snapshot = snapshot() end
  collector.current = block
  use_block(block)
end

local function close(block)
  local shot = block.load_snapshot
  if shot then
    block.load_changes = changes_since(shot)
    restore_snapshot(shot)
  elseif block.kind == "expose" then
    carry_exposed(block, "load_snapshot")
  end
  block.load_snapshot = nil
  collector.current = block.parent
  if block.parent then use(reads(block.parent), writes(block.parent)) end
end

local function start_file()
  local root = new_block(nil, nil, "file")
  collector.root = root
  layer.assert = nil
  open(root)
end

local function check_name(fname, name)
  if type(name) ~= "string" then
    error(("bad argument #1 to '%s' (string expected, got %s)"):format(fname, type(name)), 4)
  end
end

-- busted's calling forms: `f(name, fn)`, `f(fn)`, and the curried `f 'name' (fn)`, which returns the
-- function that takes `fn`. `declare(name, fn)` does the work.
local function curried(fname, declare, default_fn)
  return function(name, fn)
    if running then refuse(fname) end
    -- No tail calls below: the error levels count this frame.
    if fn == nil and type(name) == "function" then
      declare(nil, name)
    elseif fn == nil and default_fn then
      declare(name, default_fn)
    elseif fn == nil then
      return function(later)
        if running then refuse(fname) end
        declare(name, later)
      end
    else
      declare(name, fn)
    end
  end
end

local function add_child(parent, child)
  parent.children[#parent.children + 1] = child
end

local function declare_block(kind)
  return curried(kind, function(name, fn)
    check_name(kind, name)
    if type(fn) ~= "function" then
      error(("bad argument #2 to '%s' (function expected, got %s)"):format(kind, type(fn)), 3)
    end
    declares()
    local parent = collector.current
    local block = new_block(parent, name, kind)
    -- Its body runs when the run reaches it (`expand`), not now.
    block.body = fn
    add_child(parent, { block = block })
  end)
end

local function declare_test(fname)
  return curried(fname, function(name, fn)
    check_name(fname, name)
    if type(fn) ~= "function" then
      error(("bad argument #2 to '%s' (function expected, got %s)"):format(fname, type(fn)), 3)
    end
    declares()
    add_child(collector.current, { test = { name = name, fn = fn } })
  end)
end

local function declare_pending(name)
  check_name("pending", name)
  declares()
  add_child(collector.current, { test = { name = name, pending = true } })
end

-- Runs `fn` as a hook of `block`: it reads through its block (with the declarations refused) and
-- writes into its block's globals, as busted's support functions do.
local hook_layer

local function as_hook(block, fn)
  return function()
    running = true
    use(hook_layer(block), writes(block))
    return fn()
  end
end

local function declare_hook(list_name, fname)
  return curried(fname, function(name, fn)
    if fn == nil then fn = name end
    if type(fn) ~= "function" then
      error(("bad argument #1 to '%s' (function expected, got %s)"):format(fname, type(fn)), 3)
    end
    declares()
    local block = collector.current
    table.insert(block[list_name], as_hook(block, fn))
    -- A place among the block's children, so `randomize` shuffles as busted does (hooks included).
    add_child(block, { hook = true })
  end)
end

-- `randomize()`, `randomize(seed)`, `randomize(true, seed)`, `randomize(false)`: the order of this
-- block's children is shuffled with `math.random` seeded by `seed`, as busted does.
local run_seed

local function randomize(...)
  if running then refuse("randomize") end
  declares()
  local block = collector.current
  local on = select("#", ...) == 0 or (...)
  if on then
    local a, b = ...
    block.seed = tonumber(a) or tonumber(b) or block.seed or run_seed
  else
    block.seed = nil
  end
end

local api = {}

--- A main chunk with `scope` as its _ENV: the runner gives every run file the same.
api.scope = load("return", "=[envscript]/scope", "t", scope)

describe = declare_block("describe")
context = declare_block("context")
insulate = declare_block("insulate")
expose = declare_block("expose")
it = declare_test("it")
spec = declare_test("spec")
test = declare_test("test")
pending = function(name, fn)
  if running then refuse("pending") end
  declare_pending(name)
end
before_each = declare_hook("before", "before_each")
after_each = declare_hook("after", "after_each")
setup = declare_hook("setup", "setup")
teardown = declare_hook("teardown", "teardown")
strict_setup = declare_hook("setup", "strict_setup")
strict_teardown = declare_hook("teardown", "strict_teardown")
lazy_setup = declare_hook("lazy_setup", "lazy_setup")
lazy_teardown = declare_hook("lazy_teardown", "lazy_teardown")
_G.randomize = randomize

-- What a test or a hook finds under the declarations' names: busted's refusal.
local refused_names = {
  "describe", "context", "insulate", "expose", "it", "spec", "test", "pending", "before_each", "after_each",
  "setup", "teardown", "strict_setup", "strict_teardown", "lazy_setup", "lazy_teardown", "randomize",
}
local refusals = {}
for _, fname in ipairs(refused_names) do
  refusals[fname] = function() error(("'%s' not supported inside current context block"):format(fname), 2) end
end

-- The test running now: its globals, its `finally` callbacks, and how it ended early (`pending`,
-- `fail`).
local current

-- How a test ended early: `pending(reason)` and failures (luassert's, `fail`) are recorded with the
-- text they raise, so that `finish` can tell them apart from errors by the text the runner saw.
local function test_pending(message)
  if current == nil or current.in_finally then
    error("'pending' not supported inside current context block", 2)
  end
  local text = message == nil and "" or tostring(message)
  current.ended = { kind = "pending", text = text }
  error(text, 0)
end

local function is_callable(value)
  if type(value) == "function" then return true end
  local meta = getmetatable(value)
  return type(meta) == "table" and meta.__call ~= nil
end

local function test_finally(fn)
  if not is_callable(fn) then error("bad argument #1 to 'finally' (function expected)", 2) end
  if current == nil then error("'finally' not supported inside current context block", 2) end
  current.finals[#current.finals + 1] = fn
end

local function with_refusals(block, extra)
  local t = {}
  for k, v in next, refusals do t[k] = v end
  for k, v in next, extra do t[k] = v end
  return setmetatable(t, { __index = reads(block) })
end

hook_layer = function(block)
  local found = block.hook_layer
  if not found then
    found = with_refusals(block, {})
    block.hook_layer = found
  end
  return found
end

local function test_layer(block)
  local found = block.test_layer
  if not found then
    found = with_refusals(block, { pending = test_pending, finally = test_finally })
    block.test_layer = found
    block.test_meta = { __index = found }
  end
  return block.test_meta
end

-- busted's order: `math.randomseed(seed)`, then a Fisher-Yates from the end with `math.random`.
local function shuffle(list, seed)
  math.randomseed(seed)
  for n = #list, 2, -1 do
    local k = math.random(n)
    list[n], list[k] = list[k], list[n]
  end
end

-- A small generator of its own for `run --shuffle`, so that a seed gives the same order on every
-- machine and the script's own math.random is left alone.
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

-- Walking a file's tree, as busted executes it: a block's children in order (shuffled when asked), a
-- block's body run (`expand`) when the walk reaches it. `step` answers one entry at a time:
--   * a test, with its hooks and the blocks around it (outermost first); a hook's depth is the place of
--     its block in `blocks`, so that after a before_each fails only the after_each hooks of that block
--     and those around it run, as in busted;
--   * `expand`: a block whose body has not run yet; the runner enters the blocks around it and calls
--     `expand(id)` (or `skip()` when it must not run), then steps again;
--   * a block without entries (`block_only`) that must still be entered and left: for its strict
--     setups and teardowns (busted enters every block) or its insulation.
local walk_stack = {}

local function frame_for(block, parent)
  local depth = parent and #parent.ids + 1 or 1
  local befores, afters = {}, {}
  if parent then for i, h in ipairs(parent.befores) do befores[i] = h end end
  for _, f in ipairs(block.before) do befores[#befores + 1] = { fn = f, depth = depth } end
  for _, f in ipairs(block.after) do afters[#afters + 1] = { fn = f, depth = depth } end
  if parent then for _, h in ipairs(parent.afters) do afters[#afters + 1] = h end end
  local frame = {
    block = block, index = 0, entries = 0, befores = befores, afters = afters,
    before_fns = {}, before_depths = {}, after_fns = {}, after_depths = {},
    ids = {}, shuffler = parent and parent.shuffler or block.shuffler,
  }
  for i, h in ipairs(befores) do frame.before_fns[i], frame.before_depths[i] = h.fn, h.depth end
  for i, h in ipairs(afters) do frame.after_fns[i], frame.after_depths[i] = h.fn, h.depth end
  if parent then for i, id in ipairs(parent.ids) do frame.ids[i] = id end end
  frame.ids[#frame.ids + 1] = block.id
  local children = block.children
  if block.seed or frame.shuffler then
    children = {}
    for i, child in ipairs(block.children) do children[i] = child end
    if block.seed then shuffle(children, block.seed) else frame.shuffler(children) end
  end
  frame.children = children
  return frame
end

-- Whether a block the walk found no entry in must still be entered and left.
local function needs_entering(block)
  return #block.setup > 0 or #block.teardown > 0 or block.kind == "insulate" or block.kind == "expose"
end

-- The pass of the run (`--repeat`): a block's body runs once a pass, as busted runs it each time.
local current_pass = 0

--- Starts walking the file whose root block is `id`, in pass `pass` of the run.
function api.walk(id, pass)
  current_pass = pass or 1
  walk_stack = { frame_for(blocks[id], nil) }
end

--- The next entry of the file being walked, or nil at its end.
function api.step()
  while true do
    local top = walk_stack[#walk_stack]
    if top == nil then return nil end
    top.index = top.index + 1
    local child = top.children[top.index]
    if child == nil then
      walk_stack[#walk_stack] = nil
      -- An insulated block whose body ran but that was never entered (every test in it left out by the
      -- selection): what its body changed is undone here, as leaving it would.
      local done = top.block
      if done.run_snapshot and not done.entered then
        restore_snapshot(done.run_snapshot)
        done.run_snapshot = nil
      end
      local parent = walk_stack[#walk_stack]
      if parent then parent.entries = parent.entries + top.entries end
      if top.entries == 0 and needs_entering(top.block) then
        if parent then parent.entries = parent.entries + 1 end
        return { names = top.block.names, block_only = true, blocks = top.ids, before = {}, after = {} }
      end
    elseif child.test then
      top.entries = top.entries + 1
      local names = {}
      for i, n in ipairs(top.block.names) do names[i] = n end
      names[#names + 1] = child.test.name
      return {
        names = names, fn = child.test.fn, pending = child.test.pending == true,
        before = top.before_fns, before_depths = top.before_depths,
        after = top.after_fns, after_depths = top.after_depths, blocks = top.ids,
      }
    elseif child.block then
      local block = child.block
      if block.expanded == current_pass then
        walk_stack[#walk_stack + 1] = frame_for(block, top)
      else
        -- Come back to this child once its body has run.
        top.index = top.index - 1
        top.entries = top.entries + 1
        return { expand = block.id, blocks = top.ids }
      end
    end
  end
end

--- Passes over the block `step` asked to expand, without running its body (the run stopped, or a
--- setup around it failed): its tests are not collected.
function api.skip()
  local top = walk_stack[#walk_stack]
  if top then top.index = top.index + 1 end
end

local function end_expansion()
  collector.expanding = false
  collector.current = nil
  running = true
end

--- Runs the body of block `id` (the walk's next child), which declares its blocks, tests and hooks.
--- An error goes to the runner, which reports it as the block's and calls `abandon`.
function api.expand(id)
  local block = blocks[id]
  -- What the body declared on an earlier pass is declared again.
  block.children, block.seed = {}, nil
  for _, list in ipairs({ "before", "after", "setup", "teardown", "lazy_setup", "lazy_teardown" }) do
    block[list] = {}
  end
  running = false
  collector.expanding = true
  collector.current = block
  -- Insulation: what the body and the block's tests change is undone when the block is left.
  block.run_snapshot = is_insulated(block) and snapshot() or nil
  use_block(block)
  block.body()
  block.expanded = current_pass
  end_expansion()
end

--- Block `id`'s body failed (the runner reports it): its tests are not collected this pass; what its
--- body changed is undone when insulated.
function api.abandon(id)
  local block = blocks[id]
  end_expansion()
  if block.run_snapshot then
    restore_snapshot(block.run_snapshot)
    block.run_snapshot = nil
  end
  api.skip()
end

--- Starts collecting the first file. Called once everything the scripts see is defined, since what a
--- file changes in the globals is measured from here. Returns the table every run file has as _ENV.
function api.reset(seed)
  run_seed = seed or os.time()
  start_file()
  return scope
end

--- Called before a file loads, with the function that makes `scope` its _ENV. Until then the file
--- runs in `_G` itself (`_ENV == _G`, as in stock Lua), so a plain script is plain Lua. A file named
--- like busted's specs (`*_spec.lua`) enters the scope, and reads luassert's `assert`, from its first
--- line; any other from its first declaration.
function api.open_file(is_spec, enter_scope)
  -- A file loaded after a run (a worker of `run --jobs` loads each file as it is sent) starts afresh,
  -- its globals measured from now.
  if running then
    running = false
    use(layer, _G)
    start_file()
  end
  collector.root.enter_scope = enter_scope
  if is_spec then declares() end
end

--- Ends the file just loaded: returns its root block's id (for `walk`); with `seed`, the run shuffles
--- its tests within each block; with `keeps_globals` (busted's helper), what its top level set stays.
--- The next file starts afresh.
function api.collect(seed, keeps_globals)
  local root = collector.root
  -- A plain script (one that declared nothing) is not insulated: the scripts after it see its globals.
  if keeps_globals or not api.declared() then root.load_snapshot = nil end
  close(root)
  use(layer, _G)
  root.shuffler = seed and shuffler(seed) or nil
  start_file()
  return root.id
end

--- Whether the file being loaded has declared anything: an error then is a scenario load error.
function api.declared()
  return collector.root.scenario == true
end

local function run_all(block, list, what)
  for _, fn in ipairs(list) do
    local ok, err = pcall(fn)
    if not ok then error(what .. " failed: " .. tostring(err), 0) end
  end
end

--- Enters block `id` before the first of its tests runs: restores what it set while loading (when
--- insulated) and runs its strict setups.
function api.enter(id)
  running = true
  local block = blocks[id]
  if block.kind == "file" and block.scenario then layer.assert = luassert end
  -- A block whose body ran just now (`expand`) took its snapshot before it; a file takes it here and
  -- applies again what its top level set.
  if is_insulated(block) and not block.run_snapshot then
    block.run_snapshot = snapshot()
    if block.load_changes then apply_changes(block.load_changes) end
  end
  block.entered = true
  block.started = false
  block.lazy_failed = false
  run_all(block, block.setup, "setup")
end

--- Runs the lazy setups of block `id` once, before the first test in it that runs. Returns false
--- when they failed before (the test is then left out, as busted does), raises when they fail now.
function api.start(id)
  local block = blocks[id]
  if block.lazy_failed then return false end
  if block.started then return true end
  block.started = true
  local ok, err = pcall(run_all, block, block.lazy_setup, "lazy_setup")
  if not ok then
    block.lazy_failed = true
    error(err, 0)
  end
  return true
end

--- Leaves block `id`: its lazy teardowns (when a test ran in it), its strict teardowns, then undoes
--- its globals when insulated (an `expose` block's changes are kept by the insulation around it).
function api.leave(id)
  local block = blocks[id]
  local ok, err = true, nil
  if block.started then ok, err = pcall(run_all, block, block.lazy_teardown, "lazy_teardown") end
  block.started = false
  block.lazy_failed = false
  local ok2, err2 = pcall(run_all, block, block.teardown, "teardown")
  local shot = block.run_snapshot
  block.run_snapshot = nil
  block.entered = false
  if shot then
    restore_snapshot(shot)
  elseif block.kind == "expose" then
    carry_exposed(block, "run_snapshot")
  end
  if block.kind == "file" then layer.assert = nil end
  if not ok then error(err, 0) end
  if not ok2 then error(err2, 0) end
end

--- The names of block `id` (for a hook's failure).
function api.names(id) return blocks[id].names end

--- Called around each test body: `begin(id)` gives the test of block `id` its own globals,
--- `finish(failed)` runs its `finally` callbacks and says how a failed body ended: "pending" (with the
--- reason) or "failure" when it raised through `pending` or `fail`, nothing otherwise.
function api.begin(id)
  running = true
  local block = blocks[id]
  local env = setmetatable({}, test_layer(block))
  current = { finals = {}, env = env }
  use(env, env)
end

function api.finish(failed, message)
  local test_now = current
  if test_now == nil then return end
  test_now.in_finally = true
  local list = test_now.finals
  local problem
  for i = #list, 1, -1 do
    local ok, err = pcall(list[i])
    if not ok and problem == nil then problem = err end
  end
  current = nil
  if problem ~= nil then error("finally failed: " .. tostring(problem), 0) end
  local ended = test_now.ended
  if failed and ended and ended.text == message then
    return ended.kind, ended.text
  end
end

-- busted's `fail(message, level)`, and luassert's failures: the message with the caller's place, raised
-- as text and recorded as a failure of the running test.
local function fail(message, level)
  level = type(level) == "number" and level > 0 and level or 1
  local _, text = pcall(error, message, level + 2)
  if current then current.ended = { kind = "failure", text = tostring(text) } end
  error(text, 0)
end
if engine then engine.fail = fail end

-- luassert's callable `assert(v, message[, assert:level(n)])` fails as its chains do (busted binds its
-- `error` to `fail`): a failure, not an error.
local assert_meta = getmetatable(luassert)
if type(assert_meta) == "table" and assert_meta.__call then
  assert_meta.__call = function(self, value, message, level, ...)
    if not value then
      local depth = type(self.get_level) == "function" and self:get_level(level) or 1
      fail(message or "assertion failed!", depth + 1)
    end
    return value, message, level, ...
  end
end

-- A small publish/subscribe of busted's shape: channels are lists of names; a message published on
-- {"a", "b"} reaches the subscribers of {"a", "b"}, then those of {"a"}.
local channels = { subscribers = {}, children = {} }
local next_subscriber = 0

local function channel(path, create)
  local node = channels
  for _, name in ipairs(path or {}) do
    local child = node.children[name]
    if child == nil then
      if not create then return nil end
      child = { subscribers = {}, children = {}, parent = node }
      node.children[name] = child
    end
    node = child
  end
  return node
end

local function subscribe(path, fn, options)
  next_subscriber = next_subscriber + 1
  local subscriber = { id = next_subscriber, fn = fn, options = options or {}, channel = path }
  local list = channel(path, true).subscribers
  list[#list + 1] = subscriber
  return subscriber
end

local function unsubscribe(id, path)
  local node = channel(path, false)
  while node do
    for i, subscriber in ipairs(node.subscribers) do
      if subscriber.id == id or subscriber.fn == id then
        table.remove(node.subscribers, i)
        return subscriber
      end
    end
    -- Without a channel, every channel is searched (as busted's mediator does).
    if path ~= nil then break end
    node = nil
  end
end

local function publish(path, ...)
  local node = channel(path, false)
  while node do
    for _, subscriber in ipairs({ table.unpack(node.subscribers) }) do
      local predicate = subscriber.options.predicate
      if predicate == nil or predicate(...) then
        local result, continue = subscriber.fn(...)
        if continue == false then return result end
      end
    end
    node = node.parent
  end
end

-- busted's `bindfenv(fn, name, value)`: `fn` sees `value` under the global `name`. It needs to reach
-- the function's _ENV, which only the `debug` library can (`run --allow debug`).
local function bindfenv(callable, name, value)
  local debug_lib = rawget(_G, "debug")
  if debug_lib == nil then
    error("bindfenv needs the debug library (run with --allow debug)", 2)
  end
  local meta = getmetatable(callable)
  local fn = type(callable) == "function" and callable or (type(meta) == "table" and meta.__call)
  for i = 1, math.huge do
    local upname, env = debug_lib.getupvalue(fn, i)
    if upname == nil then return end
    if upname == "_ENV" then
      local bound = setmetatable({ [name] = value }, { __index = env })
      debug_lib.upvaluejoin(fn, i, function() return bound end, 1)
      return
    end
  end
end

local function sleep(seconds)
  -- The sandbox has no way to wait without working: a busy wait on the processor clock.
  local deadline = os.clock() + (tonumber(seconds) or 0)
  while os.clock() < deadline do end
end

local function block_of(element)
  if type(element) == "table" and element.id and blocks[element.id] == element then return element end
end

local exported = {
  describe = describe, context = context, insulate = insulate, expose = expose,
  it = it, spec = spec, test = test, pending = pending,
  setup = setup, teardown = teardown, strict_setup = strict_setup, strict_teardown = strict_teardown,
  lazy_setup = lazy_setup, lazy_teardown = lazy_teardown, before_each = before_each, after_each = after_each,
  assert = luassert, spy = spy, stub = stub, mock = mock, match = match,
  publish = publish, subscribe = subscribe, unsubscribe = unsubscribe,
  bindfenv = bindfenv, fail = fail,
  gettime = os.time,
  monotime = os.clock,
  sleep = sleep,
  parent = function(element) local b = block_of(element) return b and b.parent end,
  children = function(element)
    local b = block_of(element)
    local list = {}
    if b then for _, child in ipairs(b.children) do if child.block then list[#list + 1] = child.block end end end
    return list
  end,
  version = "2.1.1",
}

--- `require 'busted'`: busted's exported functions, the same values as the globals; read-only.
api.module = setmetatable({}, {
  __index = exported,
  __newindex = function() error("Attempt to modify busted", 2) end,
  __metatable = false,
})

if rawget(_G, "package") then
  package.preload.busted = function() return api.module end
  package.loaded.busted = api.module
  -- `require 'busted.runner'()` starts a standalone spec under busted; here the runner is already
  -- running it.
  local function runner() return function() end end
  package.preload["busted.runner"] = runner
end

return api
