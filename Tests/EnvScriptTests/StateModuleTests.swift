import EnvScript
import Foundation
import LuaBridge
import Testing

/// The `state` and `dependency` modules: every kind of state follows the active container.
@Suite struct StateModuleTests {
    @Test func everyKindIsIsolatedPerContainer() throws {
        let fixture = try HostFixture()
        try fixture.run("""
            state.memory('draft', 'none')
            state.stored('user', { name = 'guest', visits = 0 })
            state.file('cart', { 'apple' })
            state.secure('token', '')
            state.set('draft', 'A draft')
            state.set('user', { name = 'alice', visits = 3 })
            state.set('cart', { 'apple', 'pear' })
            state.set('token', 'secret-A')
            container.create('B')
            container.activate('B')
            """)
        // B starts from the initial values.
        #expect(try fixture.run("return state.get('draft'), state.get('user').name, #state.get('cart'), state.get('token')")
            == ["none", "guest", 1, ""])
        try fixture.run("state.set('user', { name = 'bob', visits = 1 }) state.set('token', 'secret-B')")
        try fixture.run("container.activate('DEFAULT')")
        #expect(try fixture.run("return state.get('draft'), state.get('user').name, state.get('user').visits, state.get('cart')[2], state.get('token')")
            == ["A draft", "alice", 3, "pear", "secret-A"])
        try fixture.run("container.activate('B')")
        #expect(try fixture.run("return state.get('user').name, state.get('token')") == ["bob", "secret-B"])
        // A container deleted and made again under the same name starts afresh, memory state included.
        try fixture.run("state.set('draft', 'B draft') container.delete('B') container.create('B') container.activate('B')")
        #expect(try fixture.run("return state.get('draft')") == ["none"])
    }

    @Test func cleaningTheActiveContainerForgetsItsState() throws {
        let fixture = try HostFixture()
        try fixture.run("state.file('cart', {}) state.stored('user', 'guest') state.set('cart', { 'apple' }) state.set('user', 'alice')")
        #expect(try fixture.run("return #state.get('cart'), state.get('user')") == [1, "alice"])
        try fixture.run("container.clean('DEFAULT')")
        #expect(try fixture.run("return #state.get('cart'), state.get('user')") == [0, "guest"])
    }

    @Test func integersAndFloatsStayApartOnDisk() throws {
        let fixture = try HostFixture()
        try fixture.run("state.stored('ratio', 0) state.file('scale', 0) state.set('ratio', 2.0) state.set('scale', 3.0)")
        try fixture.run("container.create('B') container.activate('B') container.activate('DEFAULT')")
        #expect(try fixture.run("return math.type(state.get('ratio')), math.type(state.get('scale'))") == ["float", "float"])
        let functionValue = try #require(throws: LuaError.self) { try fixture.run("state.set('ratio', print)") }
        #expect(functionValue.message.contains("bad argument #2 to 'state.set'"))
    }

    @Test func secureStateIsEncryptedAtRestWithTheKeyOutsideTheHome() throws {
        let fixture = try HostFixture()
        try fixture.run("state.secure('password', '') state.set('password', 'hunter2')")
        let folder = fixture.host.configuration.home.appendingPathComponent("Library/Application Support/EnvScript/SecureState")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.count == 1)
        let bytes = try Data(contentsOf: folder.appendingPathComponent(files[0]))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("hunter2"))
        let key = fixture.host.secureKeyFile
        #expect(!key.path.hasPrefix(fixture.host.configuration.home.path))
        let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func resetAndKeys() throws {
        let fixture = try HostFixture()
        try fixture.run("state.memory('a', 1) state.stored('b', 'x') state.set('a', 5) state.set('b', 'y')")
        #expect(try fixture.run("return table.concat(state.keys(), ',')") == ["a,b"])
        try fixture.run("state.reset('a')")
        #expect(try fixture.run("return state.get('a'), state.get('b')") == [1, "y"])
        try fixture.run("state.reset_all()")
        #expect(try fixture.run("return state.get('b')") == ["x"])
        let unknown = try #require(throws: LuaError.self) { try fixture.run("return state.get('nope')") }
        #expect(unknown.message.contains("nope"))
    }

    @Test func dependencyOverridesNestAndAreUndoneOnError() throws {
        let fixture = try HostFixture()
        let results = try fixture.run("""
            made = 0
            dependency.register('api', function() made = made + 1 return { base = 'https://prod' } end)
            local seen = {}
            seen[#seen + 1] = dependency.get('api').base
            dependency.override('api', { base = 'https://staging' }, function()
              seen[#seen + 1] = dependency.get('api').base
              dependency.override('api', { base = 'https://mock' }, function() seen[#seen + 1] = dependency.get('api').base end)
              seen[#seen + 1] = dependency.get('api').base
            end)
            local ok = pcall(dependency.override, 'api', { base = 'https://broken' }, function() error('test failed') end)
            seen[#seen + 1] = dependency.get('api').base
            return table.concat(seen, ' '), ok, made
            """)
        #expect(results == ["https://prod https://staging https://mock https://staging https://prod", false, 1])
        #expect(try fixture.run("return dependency.override('api', 1, function(a, b) return a + b end, 2, 3)") == [5])
    }

    @Test func containerScopedDependenciesAreRebuiltAfterASwitch() throws {
        let fixture = try HostFixture()
        try fixture.run("""
            count = 0
            dependency.register('session', function() count = count + 1 return { id = count } end, { scope = 'container' })
            dependency.register('config', function() return { id = 'app' } end)
            first = dependency.get('session').id
            again = dependency.get('session').id
            container.create('B') container.activate('B')
            after = dependency.get('session').id
            """)
        #expect(try fixture.run("return first, again, after") == [1, 1, 2])
        let badScope = try #require(throws: LuaError.self) { try fixture.run("dependency.register('x', print, { scope = 'task' })") }
        #expect(badScope.message.contains("scope must be 'application' or 'container'"))
    }
}

/// The engine tells the host when a container is removed, whoever removes it (issue "The runtime under
/// threads", item 9): deleting from Swift forgets the container's memory state as deleting from Lua does.
@Suite struct ContainerRemovalTests {
    @Test func deletingFromSwiftForgetsTheMemoryStateOfTheContainer() throws {
        let fixture = try HostFixture(attaches: false)
        try fixture.run("state.memory('draft', 'none') container.create('B') container.activate('B') state.set('draft', 'B draft') container.activate('DEFAULT')")
        let containers = fixture.host.containers
        try containers.delete(container: try containers.resolve("B"))
        let again = try containers.createNewContainer(name: "B")
        try containers.activate(container: again)
        #expect(try fixture.run("return state.get('draft')") == ["none"])
    }

    @Test func resettingFromSwiftForgetsTheMemoryStateOfEveryRemovedContainer() throws {
        let fixture = try HostFixture(attaches: false)
        try fixture.run("state.memory('draft', 'none') container.create('B') container.activate('B') state.set('draft', 'B draft')")
        try fixture.host.containers.reset()
        #expect(try fixture.run("return state.get('draft')") == ["none"])
        try fixture.run("state.set('draft', 'kept') container.create('B') container.activate('B')")
        #expect(try fixture.run("return state.get('draft')") == ["none"], "the new B does not inherit the old B's memory state")
    }
}
