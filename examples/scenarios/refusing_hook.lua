-- A will-change hook of the start-up script refuses a switch: nothing moves.
describe("a frozen container", function()
  it("cannot be activated", function()
    container.create("Frozen", { description = "release check" })
    state.set("session.user", "customer@example.com")

    assert.has_error(function() container.activate("Frozen") end)

    assert.equals("DEFAULT", container.active().name)
    assert.equals("customer@example.com", state.get("session.user"))
  end)

  it("can still be cloned and the copy activated", function()
    container.clone("Frozen", "Frozen copy")
    assert.equals("Frozen copy", container.activate("Frozen copy").name)
    container.activate("DEFAULT")
  end)

  pending("unfreezes after the release")
end)
