-- The start-up script of the examples: loaded by every `envscript` command run in this folder.
-- It sets the policies that would otherwise be compiled into the app.

-- Feature flags: the overrides of the active container win over the rules of flags.flagd.json (flagd's
-- format: variants chosen per user by targeting), which win over the shipped JSON.
tweak.stack{
  tweak.overrides(),
  tweak.flagd("flags.flagd.json", "rules"),
  tweak.json("tweaks.json", "shipped"),
}

-- Secret values in tweaks.json. Those sealed with `envscript tweak seal` (es1:KEY-ID:...) are opened by
-- the built-in cipher, with the keys of a key file kept outside the home. keys/demo.tweak-keys holds a
-- DEMO key, public in this repository: an app keeps its own key file private, or passes its keys in.
tweak.cipher{key_file = "keys/demo.tweak-keys"}

-- A hand-written decryptor still opens the other encrypted values (api.token, sealed with plain AES-GCM).
-- A real host passes its key in (here the global TWEAK_KEY, set by examples/HostApp); the command line
-- falls back to the demo key.
local key = TWEAK_KEY or "ZGVtby1rZXktZm9yLWVudnNjcmlwdC1leGFtcGxlcyE="
tweak.decryptor(function(t) return crypto.aes_gcm_open(key, t.value) end)

-- State that lives in each container.
state.stored("session.user", "")
state.memory("switches", 0)

-- Switch hooks: the release check's container is frozen; every switch is counted.
container.on_will_change(function(to, from)
  if to.name == "Frozen" then
    error("the Frozen container is kept for the release check; clone it instead")
  end
end)
container.on_did_change(function(to, from)
  switches_seen = (switches_seen or 0) + 1
end)
