-- Secret flags sealed with the built-in cipher: opened by the start-up script's tweak.cipher, marked
-- sealed (so displays mask them; `envscript tweak explain` never prints them), and refused loudly when
-- changed.
describe("sealed flags", function()
  it("opens a structured secret sealed with the demo key", function()
    local gateway, info = tweak.get("payments", "gateway")
    assert.equals("demo-merchant-42", gateway.merchant_id)
    assert.is_true(gateway.sandbox)
    assert.is_true(info.sealed)
  end)

  it("says which key opened it", function()
    local explained = tweak.explain("payments", "gateway")
    local answer = explained.steps[#explained.steps]
    assert.equals("answered", answer.outcome)
    assert.equals("demo-2026", answer.key_id)
    assert.not_nil(answer.opened_by:find("cipher", 1, true))
  end)

  it("seals and opens values of every type", function()
    local cipher = tweak.cipher{ key_file = "keys/demo.tweak-keys" }
    assert.are_same({ "demo-2026" }, cipher:key_ids())
    for _, value in ipairs({ "token", 42, true, { retries = 3 } }) do
      local sealed = cipher:seal(value)
      assert.not_nil(sealed:find("^es1:demo%-2026:"))
      assert.are_same(value, cipher:open(sealed))
    end
  end)

  it("refuses a sealed value that was changed, naming its key", function()
    local cipher = tweak.cipher{ key_file = "keys/demo.tweak-keys" }
    local sealed = cipher:seal("do not touch")
    local last = sealed:sub(-2, -2)
    local changed = sealed:sub(1, -3) .. (last == "A" and "B" or "A") .. sealed:sub(-1)
    assert.has_error(function() cipher:open(changed) end)
    local ok, message = pcall(cipher.open, cipher, changed)
    assert.is_false(ok)
    assert.not_nil(message:find("key 'demo-2026'", 1, true))
  end)
end)
