-- Deep comparison, as `assert.same`, `match.same` and spies' argument matching use it: tables are the
-- same when they hold the same keys with the same values; tables sharing a metatable with `__eq` are
-- compared with `==` (except at the top when `ignore_mt` says so); `__pairs` is ignored. Cycles are
-- followed as a bisimulation: a pair of tables already being compared is taken as the same, so two
-- cyclic structures are the same exactly when no finite path tells them apart.
--
-- On a difference it also gives the keys leading to it, innermost first ("crumbs", the order the
-- table formatter reads them in to mark the path).
local compare = {}

local function walk(a, b, ignore_mt, pending)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  local meta_a, meta_b = getmetatable(a), getmetatable(b)
  if not ignore_mt and meta_a ~= nil and meta_a == meta_b and type(meta_a) == "table" and meta_a.__eq then
    return a == b
  end
  if rawequal(a, b) then return true end
  local partners = pending[a]
  if partners == nil then
    partners = {}
    pending[a] = partners
  elseif partners[b] then
    return true
  end
  partners[b] = true
  for k, va in next, a do
    local vb = b[k]
    if vb == nil then return false, { k } end
    local same, crumbs = walk(va, vb, false, pending)
    if not same then
      crumbs = crumbs or {}
      crumbs[#crumbs + 1] = k
      return false, crumbs
    end
  end
  for k in next, b do
    if a[k] == nil then return false, { k } end
  end
  return true
end

--- Whether `a` and `b` are the same (deep); when not, also the crumbs to the first difference found.
function compare.deep(a, b, ignore_mt)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  return walk(a, b, ignore_mt, {})
end

return compare
