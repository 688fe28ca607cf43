-- Flags chosen per user: the rules of flags.flagd.json evaluated for a context, as OpenFeature has it
-- (a targeting key and attributes). `tweak.with_context` puts every lookup inside it in that context.

describe("targeting", function()
  it("gives express pay to German premium users only", function()
    local premium = { targetingKey = "user-1", country = "DE", plan = "premium" }
    assert.is_true(tweak.value("checkout", "express_pay", false, premium))
    assert.is_false(tweak.value("checkout", "express_pay", false, { targetingKey = "user-2", country = "FR" }))
    local value, info = tweak.get("checkout", "express_pay", premium)
    assert.are.same({ true, "on", "TARGETING_MATCH", "rules" }, { value, info.variant, info.reason, info.source })
    assert.are.equal("checkout-team", info.metadata.owner)
  end)

  it("shows the new onboarding from app version 2.3.0 on", function()
    tweak.with_context({ app_version = "2.3.0" }, function()
      assert.is_true(tweak.value("app", "new_onboarding", false))
    end)
    assert.is_false(tweak.value("app", "new_onboarding", false, { app_version = "2.2.9" }))
  end)

  it("splits the promotion banner by user, the same for a user every time", function()
    local seen = {}
    for index = 1, 40 do
      local user = { targetingKey = "user-" .. index }
      local banner = tweak.value("promo", "banner", "", user)
      assert.are.equal(banner, tweak.value("promo", "banner", "", user))
      seen[banner] = true
    end
    assert.is_true(seen["Spring sale"] and seen["Summer sale"])
  end)

  it("lets an override win for everyone", function()
    tweak.set("checkout", "express_pay", true)
    assert.is_true(tweak.value("checkout", "express_pay", false, { country = "FR" }))
    tweak.delete("checkout", "express_pay")
  end)
end)
