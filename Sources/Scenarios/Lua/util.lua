-- Helpers that assertions, matchers and spies share, under the names `luassert.util` gives them (its
-- users call `util.make_arglist`, `util.unpack`, `util.deepcompare`): argument lists that keep their
-- trailing nils (`n`), copies, and the matching of recorded calls against expected values.
local compare = ...
local util = {}

local arglist_meta = { __name = "arglist" }

function util.pack(...) return { n = select("#", ...), ... } end

--- `table.unpack` up to `t.n` (so trailing nils come back), else up to `#t`.
function util.unpack(t, i, j) return table.unpack(t, i or 1, j or t.n or #t) end

--- The arguments as an argument list: a table with `n`, which formatters show as "(values list)".
function util.make_arglist(...)
  return setmetatable({ n = select("#", ...), ... }, arglist_meta)
end

function util.is_arglist(value) return getmetatable(value) == arglist_meta end

function util.deepcompare(a, b, ignore_mt) return compare.deep(a, b, ignore_mt) end

--- Whether `value` can be called: a function, or a value whose metatable has a `__call` function.
function util.callable(value)
  if type(value) == "function" then return true end
  local meta = getmetatable(value)
  return type(meta) == "table" and type(rawget(meta, "__call")) == "function"
end

--- Whether `value` is a string or has a `__tostring`.
function util.hastostring(value)
  if type(value) == "string" then return true end
  local meta = getmetatable(value)
  return type(meta) == "table" and type(rawget(meta, "__tostring")) == "function"
end

function util.shallowcopy(t)
  if type(t) ~= "table" then return t end
  local copy = {}
  for k, v in next, t do copy[k] = v end
  return setmetatable(copy, getmetatable(t))
end

-- Values copies leave alone (spies, matchers): they are compared by identity. The parts that make
-- them set these.
util.is_spy = function() return false end
util.is_matcher = function() return false end
util.is_ref_matcher = function() return false end

--- A deep copy that keeps spies, cycles and metatables (shared, not copied).
function util.deepcopy(t, cache)
  if type(t) ~= "table" or util.is_spy(t) then return t end
  cache = cache or {}
  if cache[t] then return cache[t] end
  local copy = {}
  cache[t] = copy
  for k, v in next, t do copy[k] = util.deepcopy(v, cache) end
  return setmetatable(copy, getmetatable(t))
end

--- A recorded argument list, in the two forms luassert keeps: `vals`, deep copies (what the values
--- were at the call), and `refs`, the values themselves.
function util.copyargs(args)
  local vals = {}
  for k, v in next, args do
    if util.is_matcher(v) or util.is_spy(v) then vals[k] = v else vals[k] = util.deepcopy(v) end
  end
  setmetatable(vals, getmetatable(args))
  return { vals = vals, refs = util.shallowcopy(args) }
end

-- Whether one recorded list (`values`, with `refs` for reference matchers) fits `expected`: the same
-- count of values (trailing nils count), each deeply the same or accepted by a matcher.
local function fits(values, refs, expected)
  local count = values.n or #values
  if count ~= (expected.n or #expected) then return false end
  for i = 1, count do
    local want, got = expected[i], values[i]
    if util.is_matcher(want) then
      if util.is_ref_matcher(want) then got = refs[i] end
      if not want(got) then return false end
    elseif want == nil then
      if got ~= nil then return false end
    elseif got == nil or not compare.deep(got, want) then
      return false
    end
  end
  return true
end

--- The last recorded list of `records` that fits `expected`, or nil.
function util.matchargs(records, expected)
  for i = #records, 1, -1 do
    local record = records[i]
    if fits(record.vals, record.refs, expected) then return record end
  end
  return nil
end

--- The first of `oncalls` (each with `vals`) whose expected values fit the argument list `args`.
function util.matchoncalls(oncalls, args)
  for _, oncall in ipairs(oncalls) do
    if fits(args, args, oncall.vals) then return oncall end
  end
  return nil
end

--- `table.insert` for lists with `n`: nils count.
function util.tinsert(t, pos, value)
  local n = (t.n or #t) + 1
  -- Past the end: the list grows to reach it (nils before it count).
  if pos > n then n = pos end
  t.n = n
  for i = n, pos + 1, -1 do t[i] = t[i - 1] end
  t[pos] = value
end

--- `table.remove` for lists with `n`.
function util.tremove(t, pos)
  local n = t.n or #t
  pos = pos or n
  local removed = t[pos]
  for i = pos, n do t[i] = t[i + 1] end
  t.n = n - 1
  return removed
end

--- Empties an argument list.
function util.cleararglist(list)
  for i = 1, list.n or #list do list[i] = nil end
  list.n = nil
end

return util
