import Foundation
import Testing

/// What the sandbox keeps of stock Lua for busted's specs (issue #45): `debug.traceback`, `getinfo` and
/// `getmetatable`; `setmetatable` with `__gc`, its finalizer run within the limits; `loadfile` and
/// `dofile` under the script roots; chunks `string.dump` made; modules outside the project once their
/// folder may be read; and, for what stays closed, a message that names the option and the grant.
@Suite(.timeLimit(.minutes(10))) struct SandboxCompatibilityTests {
    private func summary(_ output: String) -> String {
        String(output.split(separator: "\n").last ?? "")
    }

    @Test func debugKeepsTracebackGetinfoAndGetmetatableButNotItsEscapes() throws {
        let scratch = try Scratch()
        try scratch.write("spec/debug_spec.lua", """
            describe('debug', function()
              it('gives a traceback to an xpcall handler', function()
                local ok, message = xpcall(function() error('boom') end, function(e) return e .. debug.traceback() end)
                assert.is_false(ok)
                assert.matches('debug_spec.lua:3: boom', message, 1, true)
                assert.matches('stack traceback:', message, 1, true)
              end)
              it('reads a protected metatable of a table', function()
                local meta = { __metatable = 'hidden', __index = {} }
                local t = setmetatable({}, meta)
                assert.equal('hidden', getmetatable(t))
                assert.equal(meta, debug.getmetatable(t))
                assert.equal(string, debug.getmetatable('').__index)
              end)
              it('keeps a host object behind its __metatable', function()
                local handle = container.on_did_change(function() end)
                assert.equal(getmetatable(handle), debug.getmetatable(handle))
                handle:remove()
              end)
              it('has getinfo', function() assert.equal('Lua', debug.getinfo(1, 'S').what) end)
              it('leaves out what escapes the sandbox', function()
                for _, name in ipairs({ 'sethook', 'gethook', 'getlocal', 'setlocal', 'getupvalue', 'setupvalue',
                                        'upvaluejoin', 'getregistry', 'setmetatable', 'setuservalue', 'debug' }) do
                  assert.is_nil(debug[name], name)
                end
              end)
            end)
            """)
        let outcome = try scratch.run("run")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(summary(outcome.standardOutput) == "5 passed, 0 failed")
    }

    @Test func finalizersAreAcceptedAndRunWithinTheLimits() throws {
        let scratch = try Scratch()
        try scratch.write("spec/gc_spec.lua", """
            describe('__gc', function()
              it('is accepted and runs at a collection, newest first as in stock Lua', function()
                local log = {}
                local meta = { __gc = function(o) log[#log + 1] = o.name end }
                do
                  setmetatable({ name = 'a' }, meta)
                  setmetatable({ name = 'b' }, meta)
                end
                local kept = setmetatable({ name = 'kept' }, meta)
                collectgarbage()
                collectgarbage()
                assert.same({ 'b', 'a' }, log)
                assert.is_function(rawget(meta, '__gc'))
                assert.equal('kept', kept.name)
              end)
              it('reads __gc when the table is collected, as stock Lua does', function()
                local ran = false
                local meta = { __gc = function() end }
                do setmetatable({}, meta) end
                meta.__gc = function() ran = true end
                collectgarbage()
                assert.is_true(ran)
              end)
              it('stops a finalizer that loops at the limit', function()
                do setmetatable({}, { __gc = function() while true do end end }) end
                collectgarbage()
              end)
              it('runs after it', function() end)
            end)
            """)
        let outcome = try scratch.run("run", "--test-timeout", "1")
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("PASS __gc is accepted and runs at a collection"), "\(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("PASS __gc reads __gc when the table is collected"))
        #expect(outcome.standardOutput.contains("time limit exceeded: the test took longer than 1 s (--test-timeout)"))
        #expect(summary(outcome.standardOutput) == "3 passed, 0 failed, 1 errored")
    }

    @Test func loadfileDofileAndDumpedChunksWorkWithinTheRoots() throws {
        let scratch = try Scratch()
        try scratch.write("spec/fixture.lua", "return { answer = 42 }\n")
        try scratch.write("spec/files_spec.lua", """
            describe('files', function()
              it('dofile runs a file under the project', function() assert.equal(42, dofile('spec/fixture.lua').answer) end)
              it('loadfile takes an environment', function()
                local chunk = assert(loadfile('spec/fixture.lua', 't', {}))
                assert.equal(42, chunk().answer)
              end)
              it('loadfile refuses a file outside, without an error', function()
                local chunk, problem = loadfile('/etc/hostname')
                assert.is_nil(chunk)
                assert.matches('scripts load code only from', problem, 1, true)
                assert.has_error(function() dofile('/etc/hostname') end)
              end)
              it('a missing file is stock Lua\\'s nil and message', function()
                local chunk, problem = loadfile('spec/none.lua')
                assert.is_nil(chunk)
                assert.equal('cannot open spec/none.lua: No such file or directory', problem)
              end)
              it('load takes back what string.dump made', function()
                local dumped = string.dump(function(x) return x * 2 end)
                assert.equal(42, load(dumped)(21))
                local chunk, problem = load(dumped:sub(1, -2) .. 'x')
                assert.is_nil(chunk)
                assert.matches('binary chunks are not allowed', problem, 1, true)
              end)
            end)
            """)
        let outcome = try scratch.run("run")
        #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(summary(outcome.standardOutput) == "5 passed, 0 failed")
    }

    @Test func aClosedLibraryNamesItsOptionAndTheProjectMayGrantIt() throws {
        let scratch = try Scratch()
        try scratch.write("spec/io_spec.lua", """
            describe('io', function()
              it('writes a file', function()
                local file = assert(io.open('out.txt', 'w'))
                file:write('x')
                file:close()
              end)
            end)
            """)
        let closed = try scratch.run("run")
        #expect(closed.status == 1)
        #expect(closed.standardOutput.contains(
            "attempt to index a nil value (global 'io') (io is closed in the sandbox; run with --allow io, or grant it in the project's .busted: envscript = { allow = { 'io' } })"),
            "\(closed.standardOutput)")
        try scratch.write(".busted", "return { default = { envscript = { allow = { 'io' } } } }\n")
        let granted = try scratch.run("run")
        #expect(granted.status == 0, "\(granted.standardOutput)")
        #expect(granted.standardError.contains("envscript: .busted grants --allow io"))
        #expect(granted.standardError.contains("warning: --allow io opens Lua's whole io library"))
        try scratch.write(".busted", "return { default = { envscript = { allow = { 'sockets' } } } }\n")
        let wrong = try scratch.run("run")
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains(".busted: envscript's 'allow' names io, os or debug, not 'sockets'"))
    }

    @Test func aModuleOutsideTheProjectLoadsOnceItsFolderMayBeRead() throws {
        let library = try Scratch()
        try library.write("share/lua/5.4/outside.lua", "return 'from outside'\n")
        let scratch = try Scratch()
        try scratch.write("spec/outside_spec.lua", """
            package.path = package.path .. ';\(library.url.path)/share/lua/5.4/?.lua'
            describe('outside', function()
              it('loads', function() assert.equal('from outside', require('outside')) end)
            end)
            """)
        let refused = try scratch.run("run")
        #expect(refused.status == 1)
        #expect(refused.standardOutput.contains("(outside the script roots)"), "\(refused.standardOutput)")
        #expect(refused.standardOutput.contains("run with --allow-read FOLDER"))
        let granted = try scratch.run("run", "--allow-read", library.url.path + "/share")
        #expect(granted.status == 0, "\(granted.standardOutput)\(granted.standardError)")
        // The environment's LUA_PATH is not read (scripts do not read the environment): the default is.
        try scratch.write("path.lua", "print(package.path)\n")
        let path = try scratch.run(["run", "--no-init", "path.lua"], environment: ["LUA_PATH": "/secret-place/?.lua", "LUA_PATH_5_4": "/secret-place/?.lua"])
        #expect(!path.standardOutput.contains("secret-place"), "\(path.standardOutput)")
        #expect(path.standardOutput.contains("/usr/share/lua/5.4/?.lua"))
    }

    @Test func getinfoHandsOutNoFunctionThatRunsInC() throws {
        let scratch = try Scratch()
        try scratch.write("getinfo.lua", """
            -- Inside a reader, the level above is the sandbox's load calling stock load.
            local seen = {}
            load(function()
              for level = 1, 4 do
                local info = debug.getinfo(level, 'fS')
                if info then seen[#seen + 1] = info.what .. ':' .. tostring(info.func ~= nil) end
              end
              return nil
            end)
            print(table.concat(seen, ' '))
            -- Inside an xpcall'd function, and a Lua function's own is kept.
            xpcall(function()
              print(debug.getinfo(2, 'f').func == nil, debug.getinfo(1, 'f').func ~= nil)
            end, function() end)
            print(debug.getinfo(print, 'f').func == nil)
            """)
        let outcome = try scratch.run("run", "--no-init", "getinfo.lua")
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("C:true") == false, "\(outcome.standardOutput)")
        #expect(lines.first?.contains("Lua:true") == true)
        #expect(lines.dropFirst().first == "true\ttrue")
        #expect(lines.last == "true")
    }
}
