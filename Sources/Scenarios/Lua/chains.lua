-- Chains of words, as luassert reads `assert.is_not.same(...)` and `match.is.Not.string()`: each dot
-- adds words (split at '_', case folded, so `Not` and `Nil` can be written where Lua keywords stand),
-- and the call reads them back to front, joining words into the longest name registered (so
-- `called.at_least` is `called_at_least`). Names come from namespaces: "assertion", "matcher" and
-- "modifier" (`is`, `not`, `spy`, ...), filled through `register` by the built-ins and by users alike.
--
-- A chain is a table holding its words (key 1) and the state a modifier call gave it (key 2, or
-- false); integer keys, so that no word reaches them. Chains are cached per parent and word, and what
-- their words resolve to is cached until the next `register`/`unregister`: `assert.are.same(a, b)` in
-- a loop makes no chain and reads no namespace after its first run.
local chains = {}

local namespaces = { assertion = {}, matcher = {}, modifier = {} }
chains.namespaces = namespaces

-- Bumped by every change of a namespace: cached resolutions older than it are read again.
local generation = 0

function chains.register(namespace, name, callback, positive_message, negative_message)
  local lower = name:lower()
  namespaces[namespace] = namespaces[namespace] or {}
  namespaces[namespace][lower] = {
    callback = callback, name = lower, positive_message = positive_message, negative_message = negative_message,
  }
  generation = generation + 1
end

function chains.unregister(namespace, name)
  namespaces[namespace] = namespaces[namespace] or {}
  namespaces[namespace][name:lower()] = nil
  generation = generation + 1
end

--- The names `words` spell, read back to front, longest name first; nil and the first word no name
--- starts with when some are left over.
local function names_of(namespace, words)
  local names_here, modifiers = namespaces[namespace], namespaces.modifier
  local names = {}
  local key
  local i = #words
  while i > 0 do
    key = key and (words[i] .. "_" .. key) or words[i]
    while i > 1 and names_here[words[i - 1] .. "_" .. key] do
      i = i - 1
      key = words[i] .. "_" .. key
    end
    if modifiers[key] or names_here[key] then
      table.insert(names, 1, key)
      key = nil
    end
    i = i - 1
  end
  if key then return nil, key end
  return names
end

-- Resolutions by chain: the generation they were made in, the named entry (the last one of
-- `namespace` in the chain, or nil) and the modifiers.
local resolutions = setmetatable({}, { __mode = "k" })
local children = setmetatable({}, { __mode = "k" })

--- What chain `node` names in `namespace`: the entry and the list of modifier entries. Raises
--- luassert's "unknown modifier" error when a word names nothing.
function chains.resolve(node, namespace)
  local known = resolutions[node]
  if known and known.generation == generation then return known.entry, known.modifiers end
  local names, unknown = names_of(namespace, node[1])
  if names == nil then
    error("luassert: unknown modifier/" .. namespace .. ": '" .. unknown .. "'", 3)
  end
  local entry, modifiers = nil, {}
  for _, name in ipairs(names) do
    local named = namespaces[namespace][name]
    if named then entry = named end
    local modifier = namespaces.modifier[name]
    if modifier then modifiers[#modifiers + 1] = modifier end
  end
  resolutions[node] = { generation = generation, entry = entry, modifiers = modifiers }
  return entry, modifiers
end

--- The chain that adds the words of `key` to `node` (same kind: same metatable).
function chains.extend(node, key)
  local mine = children[node]
  if mine == nil then
    mine = {}
    children[node] = mine
  end
  local child = mine[key]
  if child then return child end
  if type(key) ~= "string" then
    error(("a chain's words are strings (got %s)"):format(type(key)), 3)
  end
  local words = {}
  local parent_words = node[1]
  for i = 1, #parent_words do words[i] = parent_words[i] end
  for word in key:lower():gmatch("[^_]+") do words[#words + 1] = word end
  child = setmetatable({ words, node[2] }, getmetatable(node))
  mine[key] = child
  return child
end

--- A fresh state for one call of chain `node`: a copy of what its modifier calls set, else the
--- starting state (`mod` true: not negated).
function chains.state(node)
  local bound = node[2]
  if not bound then return { mod = true } end
  local state = {}
  for k, v in next, bound do state[k] = v end
  return state
end

--- A chain with no words that carries `state` (after a modifier call such as `spy(s)`).
function chains.bound(meta, state)
  return setmetatable({ {}, state }, meta)
end

return chains
