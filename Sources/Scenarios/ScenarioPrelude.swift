/// The Lua side of scenarios: `describe`, `it`, `pending`, `before_each`, `after_each` and `assert`.
///
/// Loading a file only collects tests (describe bodies run at once, `it` records its function);
/// ``ScenarioRunner`` then calls every hook and test from Swift, each as its own entry into Lua with
/// its own instruction budget. `assert` stays callable like Lua's own.
enum ScenarioPrelude {
    static let source = #"""
    local collector = { root = { names = {}, children = {}, before = {}, after = {} } }
    collector.current = collector.root

    local function check_name(fname, name, fn, needs_fn)
      if type(name) ~= "string" then
        error(("bad argument #1 to '%s' (string expected, got %s)"):format(fname, type(name)), 3)
      end
      if needs_fn and type(fn) ~= "function" then
        error(("bad argument #2 to '%s' (function expected, got %s)"):format(fname, type(fn)), 3)
      end
    end

    function describe(name, fn)
      check_name("describe", name, fn, true)
      local parent = collector.current
      local names = {}
      for i, n in ipairs(parent.names) do names[i] = n end
      names[#names + 1] = name
      local block = { names = names, children = {}, before = {}, after = {}, parent = parent }
      parent.children[#parent.children + 1] = { block = block }
      collector.current = block
      local ok, err = pcall(fn)
      collector.current = parent
      if not ok then error(err, 0) end
    end

    function it(name, fn)
      check_name("it", name, fn, true)
      local parent = collector.current
      parent.children[#parent.children + 1] = { test = { name = name, fn = fn } }
    end

    function pending(name)
      check_name("pending", name, nil, false)
      local parent = collector.current
      parent.children[#parent.children + 1] = { test = { name = name, pending = true } }
    end

    function before_each(fn)
      if type(fn) ~= "function" then error("bad argument #1 to 'before_each' (function expected)", 2) end
      table.insert(collector.current.before, fn)
    end

    function after_each(fn)
      if type(fn) ~= "function" then error("bad argument #1 to 'after_each' (function expected)", 2) end
      table.insert(collector.current.after, fn)
    end

    -- Values as they read in failure messages: strings quoted, tables with sorted keys.
    local function show(value, depth, seen)
      depth = depth or 0
      seen = seen or {}
      if type(value) == "string" then return ("%q"):format(value) end
      if math.type(value) == "float" then
        local text = ("%.17g"):format(value)
        return text:find("[%.eEni]") and text or (text .. ".0")
      end
      if type(value) ~= "table" then return tostring(value) end
      if seen[value] then return "<cycle>" end
      if depth >= 4 then return "{...}" end
      seen[value] = true
      local keys = {}
      for k in pairs(value) do keys[#keys + 1] = k end
      table.sort(keys, function(a, b)
        if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
        return type(a) < type(b)
      end)
      local parts = {}
      local n = #value
      for _, k in ipairs(keys) do
        if math.type(k) == "integer" and k >= 1 and k <= n then
          parts[#parts + 1] = show(value[k], depth + 1, seen)
        else
          local key = (type(k) == "string" and k:match("^[%a_][%w_]*$")) and k or ("[" .. show(k, depth + 1, seen) .. "]")
          parts[#parts + 1] = key .. " = " .. show(value[k], depth + 1, seen)
        end
      end
      seen[value] = nil
      return "{" .. table.concat(parts, ", ") .. "}"
    end

    local function same(a, b, seen)
      if a == b then return true end
      if type(a) ~= "table" or type(b) ~= "table" then return false end
      seen = seen or {}
      if seen[a] == b then return true end
      seen[a] = b
      for k, v in pairs(a) do if not same(v, b[k], seen) then return false end end
      for k in pairs(b) do if a[k] == nil then return false end end
      return true
    end

    local function fail(message, extra)
      error(extra and (message .. "\n" .. extra) or message, 3)
    end

    local lua_assert = assert
    local checks = {}
    function checks.equals(expected, actual, message)
      if expected ~= actual or math.type(expected) ~= math.type(actual) then
        fail("expected: " .. show(expected) .. "\nactual: " .. show(actual), message)
      end
    end
    function checks.same(expected, actual, message)
      if not same(expected, actual) then
        fail("expected (deep): " .. show(expected) .. "\nactual: " .. show(actual), message)
      end
    end
    function checks.is_true(value, message)
      if value ~= true then fail("expected: true\nactual: " .. show(value), message) end
    end
    function checks.is_false(value, message)
      if value ~= false then fail("expected: false\nactual: " .. show(value), message) end
    end
    function checks.is_nil(value, message)
      if value ~= nil then fail("expected: nil\nactual: " .. show(value), message) end
    end
    function checks.not_nil(value, message)
      if value == nil then fail("expected: a value, not nil\nactual: nil", message) end
    end
    function checks.has_error(fn, expected, message)
      if type(fn) ~= "function" then error("bad argument #1 to 'assert.has_error' (function expected, got " .. type(fn) .. ")", 2) end
      local ok, err = pcall(fn)
      if ok then fail("expected an error" .. (expected and (": " .. show(expected)) or "") .. "\nactual: no error", message) end
      if expected ~= nil then
        local text = type(err) == "string" and err or tostring(err)
        local plain = type(err) == "string" and text:gsub("^[^:]*:%d+: ", "") or text
        if err ~= expected and plain ~= expected then
          fail("expected error: " .. show(expected) .. "\nactual error: " .. show(err), message)
        end
      end
    end
    checks.equal = checks.equals
    checks.are_equal = checks.equals
    checks.are_same = checks.same
    checks.error = checks.has_error

    assert = setmetatable({}, {
      __index = function(_, name)
        local check = checks[name]
        if check == nil then error("assert." .. tostring(name) .. " does not exist", 2) end
        return check
      end,
      __call = function(_, ...) return lua_assert(...) end,
    })

    -- What ScenarioRunner reads after loading: every test with its hooks, in order.
    local function flatten(block, before, after, out)
      local befores, afters = {}, {}
      for _, f in ipairs(before) do befores[#befores + 1] = f end
      for _, f in ipairs(block.before) do befores[#befores + 1] = f end
      for _, f in ipairs(block.after) do afters[#afters + 1] = f end
      for _, f in ipairs(after) do afters[#afters + 1] = f end
      for _, child in ipairs(block.children) do
        if child.block then
          flatten(child.block, befores, afters, out)
        else
          local names = {}
          for i, n in ipairs(block.names) do names[i] = n end
          names[#names + 1] = child.test.name
          out[#out + 1] = { names = names, fn = child.test.fn, pending = child.test.pending == true,
                            before = befores, after = afters }
        end
      end
      return out
    end

    local function collect()
      local tests = flatten(collector.root, {}, {}, {})
      collector.root = { names = {}, children = {}, before = {}, after = {} }
      collector.current = collector.root
      return tests
    end

    -- Whether the file being loaded has declared anything: an error then is a scenario load error.
    local function declared()
      return #collector.root.children > 0 or #collector.root.before > 0 or #collector.root.after > 0
    end

    return collect, declared
    """#
}
