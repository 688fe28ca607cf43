-- The provider stack lives in the start-up script: reorder it and the flag changes, no recompiling.
describe("the provider stack", function()
  -- Put back the start-up script's stack after each test.
  after_each(function()
    tweak.stack{ tweak.overrides(), tweak.flagd("flags.flagd.json", "rules"), tweak.json("tweaks.json", "shipped") }
  end)

  it("answers from the shipped JSON by default", function()
    local value, info = tweak.get("checkout", "button_color")
    assert.equals("blue", value)
    assert.equals("shipped", info.source)
    assert.is_true(tweak.enabled("checkout"))
  end)

  it("lets an experiment on top change the flag", function()
    tweak.stack{
      tweak.ephemeral({ checkout = { button_color = "green" } }, "experiment"),
      tweak.overrides(),
      tweak.json("tweaks.json", "shipped"),
    }
    assert.equals("green", tweak.value("checkout", "button_color", "none"))
  end)

  it("lets the overrides win, per container", function()
    tweak.set("checkout", "button_color", "red")
    assert.equals("red", tweak.value("checkout", "button_color", "none"))
    container.create("Clean")
    container.activate("Clean")
    assert.equals("blue", tweak.value("checkout", "button_color", "none"))
    container.activate("DEFAULT")
    tweak.delete("checkout", "button_color")
  end)

  it("reads a structured flag as a table, and an override replaces it whole", function()
    local layout = tweak.value("checkout", "layout")
    assert.equals(3, layout.columns)
    assert.equals("sale", layout.badges[2])
    tweak.set("checkout", "layout", { columns = 1, style = "list", badges = {} })
    assert.equals("list", tweak.value("checkout", "layout").style)
    assert.is_nil(tweak.value("checkout", "layout").badges[1])
    assert.has_error(function() tweak.set("checkout", "layout", 4) end)
    tweak.delete("checkout", "layout")
    assert.equals("grid", tweak.value("checkout", "layout").style)
  end)

  it("decrypts secret values with the Lua decryptor", function()
    assert.equals("demo-token-123", tweak.value("api", "token", ""))
  end)
end)
