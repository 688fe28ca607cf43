-- Deep comparison of values, as `assert.same` and argument matching use it: tables are the same when
-- they hold the same keys with the same values (cycles followed once); on a difference it also gives
-- the path of keys that leads to it.
local format = ...
local compare = {}

local function is_nan(x) return type(x) == "number" and x ~= x end

local function walk(a, b, path, seen)
  if rawequal(a, b) or a == b or (is_nan(a) and is_nan(b)) then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  -- Each pair compared once: a cycle in either table ends the walk.
  local partners = seen[a]
  if partners == nil then
    partners = {}
    seen[a] = partners
  elseif partners[b] then
    return true
  end
  partners[b] = true
  for _, k in ipairs(format.sorted_keys(a)) do
    path[#path + 1] = k
    if not walk(a[k], rawget(b, k), path, seen) then return false end
    path[#path] = nil
  end
  for _, k in ipairs(format.sorted_keys(b)) do
    if rawget(a, k) == nil then
      path[#path + 1] = k
      return false
    end
  end
  return true
end

--- Whether `a` and `b` are the same (deep); when not, also the keys leading to the first difference.
function compare.same(a, b)
  local path = {}
  if walk(a, b, path, {}) then return true end
  return false, path
end

return compare
