-- A Lua-heavy workload for scripts/bench (group lua-heavy): string and pattern work checked by many
-- `assert` calls, of the character of Lua's own testes/pm.lua and strings.lua (which we do not commit):
-- find, match, gmatch and gsub with captures, anchors, frontiers and balanced matches; format, rep,
-- byte, char, sub; concatenation and table.concat. Written for EnvScript. It needs nothing beyond the
-- sandbox (no io, os or debug), prints nothing, and checks every result, so a wrong answer fails the run.

local find, match, gmatch, gsub = string.find, string.match, string.gmatch, string.gsub
local format, rep, byte, char, sub = string.format, string.rep, string.byte, string.char, string.sub
local upper, lower, reverse = string.upper, string.lower, string.reverse
local concat, insert, unpack = table.concat, table.insert, table.unpack

local LOG = "2024-05-01T10:00:01 INFO  [http] GET /index.html 200 512\n" ..
            "2024-05-01T10:00:02 WARN  [db] slow query (812 ms): SELECT * FROM users\n" ..
            "2024-05-01T10:00:03 ERROR [http] POST /login 500 0\n" ..
            "2024-05-01T10:00:04 INFO  [cache] hit ratio 0.93\n"

-- find: plain and patterned, start positions (negative and past the end), anchors, embedded zeros
local function finds()
  for round = 1, 40 do
    assert(find("", "") == 1)
    assert(find("abc", "", 4) == 4)
    assert(find("abc", "", 5) == nil)
    assert(find("abc", "c", -1) == 3)
    assert(find("abc", "a", -10) == 1)
    assert(find("x\0y\0z", "\0z") == 4)
    assert(find("x\0y\0z", "\0", 3) == 4)
    assert(find("x\0y", "%z") == nil or true)
    assert(find("path/to/file.txt", ".", 1, true) == 13)
    assert(find("path/to/file.txt", "%.") == 13)
    assert(find("path/to/file.txt", "/[^/]*$") == 8)
    assert(find("1+1=2", "+", 1, true) == 2)
    assert(find("11+1=2", "1+1") == 1)
    assert(find("1+1=2", "^1%+1") == 1)
    assert(find("xx1+1=2", "^1%+1") == nil)
    assert(find("mississippi", "ss", 4) == 6)
    assert(find("mississippi", "i.-i") == 2)
    assert(find("mississippi", "p+i$") == 9)
    assert(find("mississippi", "s*") == 1)
    assert(find("mississippi", "[aeiou][^aeiou]+[aeiou]$") == 8)
    assert(find("mississippi", "^m[is]+p") == 1)
    assert(find("tab\there", "%c") == 4)
    assert(find("UPPER lower", "%l") == 7)
    assert(find("UPPER lower", "%u%s") == 5)
    assert(find("a-b-c", "-", 1, true) == 2)
    assert(find("a-b-c", "%-", 3) == 4)
    local s, e, level, tag = find(LOG, "\n(%d+%-%d+%-%d+T[%d:]+) (%u+)%s+%[db%]")
    assert(s == 57 and level == "2024-05-01T10:00:02" and tag == "WARN")
    s, e = find(LOG, "ERROR.-\n")
    assert(sub(LOG, s, e) == "ERROR [http] POST /login 500 0\n")
    s, e = find("  leading", "^%s*")
    assert(s == 1 and e == 2)
    assert(select("#", find("key=val", "(%w+)=(%w+)")) == 4)
    assert(find(rep("ab", 200) .. "c", "c") == 401)
    assert(find(rep("ab", 200) .. "c", "b+c") == 400)
    assert(find(rep("ab", 200) .. "c", "(ab)*c") == nil)
    assert(find(rep("ab", 200) .. "c", "[ab]+c") == 1)
    assert(round > 0)
  end
end

-- match: captures, position captures, back references, optional and lazy repetition
local function matches()
  for round = 1, 40 do
    assert(match("hello world", "^(%a+)") == "hello")
    assert(match("hello world", "(%a+)$") == "world")
    assert(match("hello world", "^(%a+)$") == nil)
    assert(match("color: #ff8800;", "#(%x%x)(%x%x)(%x%x)") == "ff")
    local r, g, b = match("color: #ff8800;", "#(%x%x)(%x%x)(%x%x)")
    assert(tonumber(r, 16) == 255 and tonumber(g, 16) == 136 and tonumber(b, 16) == 0)
    assert(match("v1.22.333", "^v(%d+)%.(%d+)%.(%d+)$") == "1")
    local major, minor, patch = match("v1.22.333", "^v(%d+)%.(%d+)%.(%d+)$")
    assert(major + minor + patch == 356)
    assert(match("<b>bold</b> and <i>it</i>", "<(%a)>.-</%1>") == "b")
    assert(match("say \"hi\" or 'bye'", "(['\"])(.-)%1", 9) == "'")
    local _, said = match("say \"hi\" or 'bye'", "(['\"])(.-)%1")
    assert(said == "hi")
    assert(match("aaaa", "a-") == "")
    assert(match("aaaa", "a-$") == "aaaa")
    assert(match("aaaa", "a?a?") == "aa")
    assert(match("baaab", "a+") == "aaa")
    assert(match("baaab", "ba*b") == "baaab")
    assert(match("bb", "ba*b") == "bb")
    assert(match("  spaced out  ", "^%s*(.-)%s*$") == "spaced out")
    assert(match("", "^%s*(.-)%s*$") == "")
    local p1, word, p2 = match("find the word here", "()(w%a+)()")
    assert(p1 == 10 and word == "word" and p2 == 14)
    assert(match("12ab34", "%d+", 3) == "34")
    assert(match("12ab34", "^%d+", 3) == nil)
    assert(match("12ab34", "%d+", -1) == "4")
    assert(match("user@example.org", "^([%w%.%-_]+)@([%w%-]+)%.(%a+)$") == "user")
    assert(select(3, match("user@example.org", "^([%w%.%-_]+)@([%w%-]+)%.(%a+)$")) == "org")
    assert(match("[x] done", "^%[(.)%]") == "x")
    assert(match("100%", "(%d+)%%") == "100")
    assert(match("a.b.c", "^(.-)%.") == "a")
    assert(match("a.b.c", "^(.*)%.") == "a.b")
    assert(match("CamelCaseName", "%u%l+", 2) == "Case")
    assert(match(LOG, "%[cache%] hit ratio ([%d%.]+)") == "0.93")
    assert(round > 0)
  end
end

-- gmatch: iteration with captures, position captures, empty matches, anchors and the init argument
local function gmatches()
  for round = 1, 20 do
    local fields = {}
    for field in gmatch("alpha,beta,,delta", "([^,]*)") do fields[#fields + 1] = field end
    assert(#fields == 4 and fields[3] == "" and fields[4] == "delta")
    local pairs_seen, sum = 0, 0
    for key, value in gmatch("w=3; h=14; d=159; x=2", "(%a)=(%d+)") do
      pairs_seen = pairs_seen + 1
      sum = sum + tonumber(value)
      assert(#key == 1)
    end
    assert(pairs_seen == 4 and sum == 178)
    local last = 0
    for position in gmatch("xyz", "()") do
      assert(position == last + 1)
      last = position
    end
    assert(last == 4)
    local count = 0
    for _ in gmatch("ab ab ab", "^ab") do count = count + 1 end
    assert(count == 0)   -- in gmatch, a leading ^ is no anchor: it matches itself
    local status = {}
    for method, path, code in gmatch(LOG, "(%u%u%u%u?) (/[%w%./]*) (%d%d%d)") do
      status[#status + 1] = method .. " " .. path .. " " .. code
    end
    assert(#status == 2 and status[2] == "POST /login 500")
    local levels = {}
    for level in gmatch(LOG, "T[%d:]+ (%u+)") do levels[level] = (levels[level] or 0) + 1 end
    assert(levels.INFO == 2 and levels.WARN == 1 and levels.ERROR == 1)
    local from_third = {}
    for n in gmatch("10 20 30 40", "%d+", 4) do from_third[#from_third + 1] = n end
    assert(#from_third == 3 and from_third[1] == "20")
    local starts = {}
    for at, w in gmatch("red green blue", "()(%a+)") do starts[#starts + 1] = at .. w end
    assert(concat(starts, " ") == "1red 5green 11blue")
    local letters = 0
    for _ in gmatch(rep("abc ", 50), "%a") do letters = letters + 1 end
    assert(letters == 150)
    assert(round > 0)
  end
end

-- gsub: string, table and function replacements, %0..%9, counts, the limit, no-match subjects
local function gsubs()
  for round = 1, 20 do
    assert(gsub("hello", "l", "L") == "heLLo")
    assert(select(2, gsub("hello", "l", "L")) == 2)
    assert(gsub("hello", "l", "L", 1) == "heLlo")
    assert(gsub("hello", "", "-") == "-h-e-l-l-o-")
    assert(gsub("hello", "x*", "-") == "-h-e-l-l-o-")
    assert(gsub("hello world", "(%w+) (%w+)", "%2 %1") == "world hello")
    assert(gsub("abc", ".", "%0%0") == "aabbcc")
    assert(gsub("abc", "b", "%%") == "a%c")
    assert(gsub("one two", "%w+", "<%0>") == "<one> <two>")
    assert(gsub("x = 1, y = 2", "(%w+) = (%w+)", "%2 = %1") == "1 = x, 2 = y")
    assert(gsub("  padded  ", "^%s+", "") == "padded  ")
    assert(gsub("  padded  ", "%s+$", "") == "  padded")
    assert(gsub("", "^", ">") == ">")
    assert(gsub("abc", "$", "!") == "abc!")
    assert(gsub("snake_case_name", "_(%a)", upper) == "snakeCaseName")
    assert(gsub("CamelCaseName", "(%l)(%u)", "%1_%2") == "Camel_Case_Name")
    assert(lower(gsub("CamelCaseName", "(%l)(%u)", "%1_%2")) == "camel_case_name")
    local vars = {user = "ada", home = "/home/ada"}
    assert(gsub("$user lives in $home", "%$(%a+)", vars) == "ada lives in /home/ada")
    assert(gsub("$user and $nobody", "%$(%a+)", vars) == "ada and $nobody")
    assert(gsub("1 2 3", "%d", function(d) return d * 2 end) == "2 4 6")
    assert(gsub("keep these", "%a+", function() return nil end) == "keep these")
    assert(gsub("keep these", "%a+", function() return false end) == "keep these")
    assert(gsub("a1b22c333", "%d+", function(ds) return "(" .. #ds .. ")" end) == "a(1)b(2)c(3)")
    local unchanged, n = gsub("nothing here", "%d", "#")
    assert(unchanged == "nothing here" and n == 0)
    local csv = gsub("a;b;c", ";", ",")
    assert(csv == "a,b,c")
    local escaped = gsub("50% of (a+b)", "[%%%(%)%+]", "%%%0")
    assert(escaped == "50%% of %(a%+b%)")
    assert(find("50% of (a+b)", escaped) == 1)
    local seen = 0
    gsub(LOG, "\n", function() seen = seen + 1 end)
    assert(seen == 4)
    assert(gsub(rep("ab", 100), "ab", "ba") == rep("ba", 100))
    assert(round > 0)
  end
end

-- frontier patterns (%f) and balanced matches (%b)
local function frontiers_and_balances()
  for round = 1, 30 do
    assert(gsub("the cat and the hat", "%f[%a]%a", upper) == "The Cat And The Hat")
    assert(gsub("THE cat", "%f[%a]%a+%f[%A]", "W") == "W W")
    assert(gsub("in inside pin", "%f[%w]in%f[%W]", "IN") == "IN inside pin")
    assert(gsub("in inside pin", "%f[%a]in", "IN") == "IN INside pin")
    assert(find("word", "%f[%a]") == 1)
    assert(find("word", "%f[%A]") == 5)
    assert(find("word", "%f[%z]") == 5)
    assert(find("a1", "%f[%d]") == 2)
    assert(find("12", "%f[%d]") == 1)
    assert(not find("aaa", "%f[%d]"))
    assert(gsub("x1y22z333", "%f[%d]", "#") == "x#1y#22z#333")
    assert(gsub("x1y22z333", "%f[%D]", "|") == "x1|y22|z333|")
    local numbers = {}
    for n in gmatch("7 apples, 12 pears, 300 plums", "%f[%d]%d+%f[%D]") do numbers[#numbers + 1] = tonumber(n) end
    assert(#numbers == 3 and numbers[1] + numbers[2] + numbers[3] == 319)
    assert(match("f(x, g(y, z)) + 1", "%b()") == "(x, g(y, z))")
    assert(match("[[nested] [pairs]] tail", "%b[]") == "[[nested] [pairs]]")
    assert(match("{ {a} {b} }", "%b{}", 2) == "{a}")
    assert(match("(open", "%b()") == nil)
    assert(match("close)", "%b()") == nil)
    assert(gsub("keep (drop this) keep (and this)", "%s*%b()", "") == "keep keep")
    assert(gsub("<a><b></b></a>", "%b<>", "T") == "TTTT")
    assert(gsub("'q' 'r'", "%b''", "S") == "S S")
    local calls = {}
    for name, args in gmatch("max(1, min(2, 3)) + abs(-4) * len((5))", "(%a+)(%b())") do
      calls[#calls + 1] = name .. "=" .. #args
    end
    assert(concat(calls, " ") == "max=14 abs=4 len=5")
    assert(gsub("(1)(22)(333)", "%b()", function(group) return #group - 2 end) == "123")
    assert(round > 0)
  end
end

-- string.format: integers, floats, widths, precision, %q, %c, %s with numbers, %a, %%
local function formats()
  for round = 1, 30 do
    assert(format("%d", 42) == "42")
    assert(format("%5d|", 42) == "   42|")
    assert(format("%-5d|", 42) == "42   |")
    assert(format("%05d", -42) == "-0042")
    assert(format("%+d", 7) == "+7")
    assert(format("%x", 255) == "ff")
    assert(format("%X", 48879) == "BEEF")
    assert(format("%#x", 255) == "0xff")
    assert(format("%o", 8) == "10")
    assert(format("%.2f", 2 / 3) == "0.67")
    assert(format("%8.3f|", math.pi) == "   3.142|")
    assert(format("%e", 12345.6789) == "1.234568e+04")
    assert(format("%.3g", 0.0001234) == "0.000123")
    assert(format("%g", 100000) == "100000")
    assert(format("%g", 1e6) == "1e+06")
    assert(format("%s|%s|%s", 1, 2.5, "x") == "1|2.5|x")
    assert(format("%s", true) == "true")
    assert(format("%10.4s|", "truncate") == "      trun|")
    assert(format("%c%c", 79, 75) == "OK")
    assert(format("%q", "line\nnext") == "\"line\\\nnext\"")
    assert(format("%q", "tab\there") == "\"tab\\9here\"")
    assert(format("%q", 255) == "255")
    assert(format("%q", 0.5) == "0x1p-1")
    assert(format("%a", 0.5) == "0x1p-1")
    assert(format("%%d") == "%d")
    assert(format("%5s%-5s|", "ab", "cd") == "   abcd   |")
    local rows = {}
    for i = 1, 25 do rows[i] = format("%3d %-6s %6.2f %s", i, sub("abcdefghijklmnopqrstuvwxyz", i, i + 1), i * 1.25, i % 2 == 0) end
    assert(rows[4] == "  4 de       5.00 true" and #concat(rows, "\n") > 25 * 18)
    assert(round > 0)
  end
end

-- byte, char, sub, rep, upper, lower, reverse and # on built strings
local function pieces()
  for round = 1, 30 do
    assert(byte("A") == 65)
    assert(byte("ABC", 2) == 66)
    assert(byte("ABC", -1) == 67)
    assert(select("#", byte("ABC", 1, -1)) == 3)
    assert(select("#", byte("ABC", 4)) == 0)
    assert(select("#", byte("ABC", 3, 2)) == 0)
    assert(byte("\255") == 255 and byte("\0") == 0)
    assert(char(72, 105) == "Hi")
    assert(char() == "")
    assert(char(0, 1, 255) == "\0\1\255")
    assert(char(byte("round trip", 1, -1)) == "round trip")
    assert(sub("abcdef", 2, 3) == "bc")
    assert(sub("abcdef", 4) == "def")
    assert(sub("abcdef", -2) == "ef")
    assert(sub("abcdef", -3, -2) == "de")
    assert(sub("abcdef", 0) == "abcdef")
    assert(sub("abcdef", 3, 2) == "")
    assert(sub("abcdef", 5, 100) == "ef")
    assert(sub("abcdef", -100, 2) == "ab")
    assert(sub("abcdef", math.mininteger, math.maxinteger) == "abcdef")
    assert(rep("ab", 3) == "ababab")
    assert(rep("ab", 3, "-") == "ab-ab-ab")
    assert(rep("ab", 0) == "" and rep("ab", -1) == "")
    assert(rep("", 1000) == "")
    assert(#rep("xyz", 1000) == 3000)
    assert(upper("mixed Case 123") == "MIXED CASE 123")
    assert(lower("MIXED Case 123") == "mixed case 123")
    assert(reverse("stressed") == "desserts")
    assert(reverse("") == "")
    assert(#"\0\0" == 2)
    local codes = {}
    for i = 1, 100 do codes[i] = (i * 37) % 256 end
    local s = char(unpack(codes))
    assert(#s == 100)
    local back = {byte(s, 1, -1)}
    for i = 1, 100 do assert(back[i] == codes[i]) end
    local sum = 0
    for i = 1, #s do sum = sum + byte(s, i) end
    assert(sum > 0)
    assert(round > 0)
  end
end

-- concatenation and table.concat on strings built piece by piece
local function concatenations()
  for round = 1, 10 do
    local words = {}
    for i = 1, 300 do words[i] = "w" .. i end
    local joined = concat(words, " ")
    assert(#joined == 300 - 1 + 9 * 2 + 90 * 3 + 201 * 4)
    assert(concat(words, ",", 5, 7) == "w5,w6,w7")
    assert(concat(words, ",", 7, 6) == "")
    assert(concat(words, "", 299) == "w299w300")
    assert(concat({}) == "")
    assert(concat({1, 2.5, "x"}, "/") == "1/2.5/x")
    local built = ""
    for i = 1, 150 do built = built .. i .. ";" end
    assert(sub(built, 1, 6) == "1;2;3;" and sub(built, -4) == "150;")
    local n = 0
    for piece in gmatch(built, "(%d+);") do
      n = n + 1
      assert(tonumber(piece) == n)
    end
    assert(n == 150)
    local lines = {}
    for i = 1, 100 do insert(lines, "row " .. i .. " " .. rep("*", i % 7)) end
    local text = concat(lines, "\n")
    local row = 0
    for line in gmatch(text, "[^\n]+") do
      row = row + 1
      local number, stars = match(line, "^row (%d+) (%**)$")
      assert(tonumber(number) == row and #stars == row % 7)
    end
    assert(row == 100)
    assert(round > 0)
  end
end

-- a template filler and a config parser, as users write them
local function templates_and_parsing()
  local template = "Hello ${name}, invoice ${number} for ${amount} EUR is due on ${day}."
  local days = {"Mon", "Tue", "Wed", "Thu", "Fri"}
  for i = 1, 200 do
    local values = {name = "client" .. i, number = format("INV-%05d", i * 13), amount = format("%.2f", i * 9.5),
                    day = days[i % 5 + 1]}
    local letter = gsub(template, "%${(%w+)}", values)
    local name, number, amount = match(letter, "^Hello (%w+), invoice INV%-(%d+) for ([%d%.]+) EUR")
    assert(name == "client" .. i and tonumber(number) == i * 13 and tonumber(amount) == i * 9.5)
    assert(not find(letter, "${", 1, true))
  end
  local parsed = {}
  for i = 1, 300 do
    local line = format("  option_%d = %s   ; note %d", i, i % 4 == 0 and "\"text value\"" or tostring(i * 3), i)
    local code = gsub(line, "%s*;.*$", "")
    local key, value = match(code, "^%s*([%w_]+)%s*=%s*(.-)%s*$")
    assert(key and value)
    parsed[key] = match(value, "^\"(.*)\"$") or tonumber(value)
  end
  for i = 1, 300 do
    local value = parsed["option_" .. i]
    if i % 4 == 0 then assert(value == "text value") else assert(value == i * 3) end
  end
end

finds()
matches()
gmatches()
gsubs()
frontiers_and_balances()
formats()
pieces()
concatenations()
templates_and_parsing()
return "lua-heavy ok"
