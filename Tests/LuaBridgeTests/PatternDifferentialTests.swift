import CLua
import CLuaSupport
@testable import LuaBridge
import Testing

/// The sandbox's own pattern functions give stock Lua's results: thousands of random patterns and
/// subjects run through `string.find`, `match`, `gmatch` and `gsub` and through the system Lua
/// library's, and every result and every error message must agree.
@Suite struct PatternDifferentialTests {
    /// A state whose global `stock` is the system library's string table, beside the sandbox's `string`.
    func stateWithStockStrings() throws -> LuaState {
        let lua = try LuaState()
        let thread = lua.core.mainThread
        lua_pushcclosure(thread, luaopen_string, 0)
        lua_callk(thread, 0, 1, 0, nil)
        lua_setglobal(thread, "stock")
        return lua
    }

    static let comparison = """
        local seed, cases = ...
        math.randomseed(seed)
        local function pick(list) return list[math.random(#list)] end
        local subjectBytes = { "a", "a", "b", "c", "(", ")", "[", "]", ".", " ", "-", "%", "x", "1", "_", "\\n", "\\0", "\\200", "A" }
        local items = {
          "a", "b", "c", ".", "%a", "%d", "%s", "%w", "%A", "%S", "%x", "%p", "%l", "%u", "%c", "%g", "%%", "%.", "%(",
          "[a-c]", "[^ab]", "[%a_]", "[]]", "[^]]", "[a-]", "[%]]", "[%w%s]", "x", " ", "1", "\\0", "[\\0-\\31]",
        }
        local specials = { "(", ")", "()", "%1", "%2", "%b()", "%bab", "%f[%w]", "%f[%s]", "%f[^a]", "$", "^",
                           "%", "[", "[a", "%b", "%f", "%f[", "%0", "%9", "%z", "]" }
        local quantifiers = { "", "", "", "*", "+", "-", "?" }
        local function randomSubject()
          local parts = {}
          for _ = 1, math.random(0, 14) do parts[#parts + 1] = pick(subjectBytes) end
          return table.concat(parts)
        end
        local function randomPattern()
          local parts = {}
          if math.random() < 0.15 then parts[1] = "^" end
          for _ = 1, math.random(0, 6) do
            if math.random() < 0.25 then parts[#parts + 1] = pick(specials)
            else parts[#parts + 1] = pick(items) .. pick(quantifiers) end
          end
          if math.random() < 0.1 then parts[#parts + 1] = "$" end
          return table.concat(parts)
        end
        local function show(ok, ...)
          local out = { tostring(ok) }
          for i = 1, select("#", ...) do
            local v = select(i, ...)
            out[#out + 1] = type(v) .. ":" .. tostring(v)
          end
          return table.concat(out, "|")
        end
        local function collect(library, s, p, init)
          local ok, iterator = pcall(library.gmatch, s, p, init)
          if not ok then return show(false, iterator) end
          local out = {}
          for _ = 1, 40 do
            local results = table.pack(pcall(iterator))
            if not results[1] then out[#out + 1] = show(false, results[2]) break end
            if results[2] == nil then break end
            out[#out + 1] = show(table.unpack(results, 1, results.n))
          end
          return table.concat(out, ";")
        end
        local replacements = {
          function() return "<%0>" end, function() return "%1-%%" end, function() return "%2" end,
          function() return "%" end, function() return 7 end,
          function() return function(a, b) if a == "a" then return nil end return tostring(a) .. "/" .. tostring(b) end end,
          function() return { a = "A", b = false, ["("] = 1 } end,
          function() return function() return {} end end,
        }
        local mismatches, checked = {}, 0
        local function compare(what, left, right)
          checked = checked + 1
          if left ~= right and #mismatches < 10 then
            mismatches[#mismatches + 1] = what .. "\\n  sandbox: " .. left .. "\\n  stock:   " .. right
          end
        end
        for case = 1, cases do
          local s, p = randomSubject(), randomPattern()
          local init = math.random() < 0.3 and math.random(-16, 16) or nil
          local label = string.format("case %d: subject %q pattern %q init %s", case, s, p, tostring(init))
          compare("find " .. label, show(pcall(string.find, s, p, init)), show(pcall(stock.find, s, p, init)))
          compare("plain find " .. label, show(pcall(string.find, s, p, init, true)), show(pcall(stock.find, s, p, init, true)))
          compare("match " .. label, show(pcall(string.match, s, p, init)), show(pcall(stock.match, s, p, init)))
          compare("gmatch " .. label, collect(string, s, p, init), collect(stock, s, p, init))
          local replacement = pick(replacements)()
          local most = math.random() < 0.3 and math.random(0, 3) or nil
          compare("gsub " .. label .. " most " .. tostring(most),
                  show(pcall(string.gsub, s, p, replacement, most)), show(pcall(stock.gsub, s, p, replacement, most)))
        end
        return checked, table.concat(mismatches, "\\n")
        """

    @Test(arguments: [1, 2, 3, 4])
    func randomPatternsGiveStockResults(seed: Int) throws {
        let lua = try stateWithStockStrings()
        let results = try lua.execute(Self.comparison, chunkName: "=differential", arguments: [.integer(seed), .integer(2_500)])
        #expect(results.first == .integer(12_500))
        let mismatches: String
        switch results.last {
        case .string(let text): mismatches = text
        case .bytes(let bytes): mismatches = String(decoding: bytes, as: UTF8.self)
        default: mismatches = "no report"
        }
        #expect(mismatches.isEmpty, "seed \(seed):\n\(mismatches)")
    }

    @Test func theMatcherFindsWhatTheManualSays() throws {
        let lua = try LuaState()
        let results = try lua.execute("""
            local t = {}
            t[1] = select(3, string.find("hello world", "(o)(r)"))
            t[2] = string.match("key = value", "(%w+)%s*=%s*(%w+)")
            t[3] = string.gsub("hello world", "%w+", "%0 %0", 1)
            t[4] = string.match("THE (quick) fox", "%f[%a]%a+", 5)
            t[5] = string.match("x = (a(b)c)", "%b()")
            local words = {} for w in string.gmatch("one two  three", "%a+") do words[#words + 1] = w end
            t[6] = table.concat(words, ",")
            t[7] = select(2, string.gsub("abc", "", "-"))
            t[8] = string.match("  padded  ", "^%s*(.-)%s*$")
            t[9] = string.find("a+b", "+", 1, true)
            t[10] = string.match("hello", "()ll()")
            return table.unpack(t, 1, 10)
            """)
        #expect(results == [.string("o"), .string("key"), .string("hello hello world"), .string("quick"), .string("(a(b)c)"),
                            .string("one,two,three"), .integer(4), .string("padded"), .integer(2), .integer(3)])
    }
}
