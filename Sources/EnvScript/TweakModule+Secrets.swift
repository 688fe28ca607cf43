import Foundation
import Logging
import LuaBridge
import Preferences
import Tweaks

extension TweakModule {
    /// Sealed values: `decryptor` (a Lua function) and `cipher` (the built-in AES-GCM cipher).
    static func registerSecretFunctions(on module: inout LuaModule, host: EnvScriptHost, generation: ScriptGeneration) {
        // The module lives in the generation's state: holding the generation would keep both alive.
        unowned let generation = generation
        module.function("decryptor") { [unowned host, unowned generation] call in
            if try call.value(1) == .nil {
                try generation.set { $0.decryptor = .some(nil) }
                return 0
            }
            let decryptor = LuaTweakProvider.decryptor(LuaCallback(try call.function(1), lock: host.lock))
            try generation.set { $0.decryptor = decryptor }
            return 0
        }

        module.function("cipher") { [unowned host, unowned generation] call in
            let first = try call.value(1)
            if first == .boolean(false) {
                try generation.set { $0.cipher = .some(nil) }
                return 0
            }
            var keyFile: URL?
            if first != .nil {
                let options = try OptionTable(call, 1, accepted: ["key_file"])
                if let path = try options.string("key_file") {
                    let url = try host.permissionGate.check(.read, path, by: "tweak.cipher")
                    if url.isInside(PermissionGate.resolved(host.configuration.home.path)) {
                        throw options.problem("key_file", "names \(path), inside the home \(host.configuration.home.path), where a switch would move it with the containers' data; keep the key file outside the home")
                    }
                    keyFile = url
                }
            }
            let cipher = try Self.cipher(keyFile: keyFile, hostKeys: host.configuration.tweakKeys)
            try generation.set { $0.cipher = cipher }
            call.push(TweakCipherHandle(cipher).luaValue)
            return 1
        }
    }

    /// The cipher of `tweak.cipher`: the host's keys, then those of the key file (whose last key seals).
    private static func cipher(keyFile: URL?, hostKeys: TweakKeySource?) throws -> TweakCipher {
        do {
            var ring = try hostKeys?.keyring() ?? TweakCipherKeyring([])
            if let keyFile {
                ring = try ring.merged(with: try TweakCipherKeyring.load(file: keyFile), origin: keyFile.path)
            }
            if ring.keys.isEmpty {
                throw LuaScriptError("tweak.cipher: no keys; name a key file (tweak.cipher{key_file = 'keys/app.tweak-keys'}, made by envscript tweak keygen) or have the host pass its keys (HostConfiguration.tweakKeys; envscript reads $ENVSCRIPT_TWEAK_KEYS)")
            }
            return TweakCipher(keyring: ring)
        } catch let error as TweakCipherError {
            throw LuaScriptError("tweak.cipher: \(error)")
        }
    }
}
