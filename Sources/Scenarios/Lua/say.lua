-- Message texts by key and language, as the `say` module luassert's users know: `say:set(key, text)`
-- in the current language, `say(key, {values})` fills the text's `%s` places with the values (each
-- through `tostring`), and a key the current language lacks falls back to English. Assertions name
-- their messages by key ("assertion.equals.positive"), so a user may reword or translate them.
local texts = {}
local current, fallback

local say = {}

--- Makes `language` the one `set` writes to and lookups read first.
function say:set_namespace(language)
  current = language
  texts[language] = texts[language] or {}
end

--- Makes `language` the one a lookup falls back to.
function say:set_fallback(language)
  fallback = language
  texts[language] = texts[language] or {}
end

--- Stores `text` under `key` in the current language.
function say:set(key, text)
  texts[current][key] = text
end

setmetatable(say, {
  -- `say(key, values)`: the text, filled; nil when no language knows the key.
  __call = function(_, key, values)
    if values ~= nil and type(values) ~= "table" then
      error(("expected parameter table to be a table, got '%s'"):format(type(values)), 2)
    end
    local text = texts[current][key]
    if text == nil then text = texts[fallback][key] end
    if text == nil then return nil end
    text = tostring(text)
    if values == nil then return text end
    local count = math.max(values.n or 0, #values)
    if count == 0 then return text end
    local strings = {}
    for i = 1, count do strings[i] = tostring(values[i]) end
    return text:format(table.unpack(strings, 1, count))
  end,
  -- `say.en`: a language's table of texts.
  __index = function(_, language) return texts[language] end,
})

say:set_fallback("en")
say:set_namespace("en")
say._registry = texts

return say
