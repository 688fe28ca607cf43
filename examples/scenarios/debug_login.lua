-- Log in on a Debug container, then switch back: the original session is untouched.
describe("a Debug login", function()
  before_each(function()
    if not container.get("Debug") then container.create("Debug", { description = "QA login" }) end
  end)

  after_each(function()
    container.activate("DEFAULT")
  end)

  it("leaves the original session untouched", function()
    state.set("session.user", "customer@example.com")
    container.activate("Debug")
    assert.equals("", state.get("session.user"))
    state.set("session.user", "qa+debug@example.com")

    container.activate("DEFAULT")
    assert.equals("customer@example.com", state.get("session.user"))
  end)

  it("keeps the Debug login for next time", function()
    container.activate("Debug")
    assert.equals("qa+debug@example.com", state.get("session.user"))
    assert.equals("Debug", container.active().name)
  end)
end)
