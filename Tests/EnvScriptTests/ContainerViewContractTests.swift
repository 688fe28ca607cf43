import EnvScript
import EnvScriptOperations
import Foundation
import LuaBridge
import Testing

/// One container view for every front door: the fields `ContainerView` (and the list and damaged views)
/// encode are, field by field, those OpenAPI's document declares, those the LuaLS definitions give a
/// script, and those a script's table holds — so the seven places a container was once spelt out by hand
/// cannot drift apart again.
@Suite struct ContainerViewContractTests {
    /// The keys of `view`'s JSON.
    private func keys(_ view: some Encodable) throws -> Set<String> {
        Set(try JSONValue.parse(JSONEncoder().encode(view)).object?.keys.map { $0 } ?? [])
    }

    /// The `---@field` names of a class in `types/classes.lua`.
    private func luaFields(of className: String) throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("types/classes.lua"), encoding: .utf8)
        var fields = Set<String>()
        var inClass = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("---@class ") { inClass = line.dropFirst(10).split(separator: " ").first.map(String.init) == className }
            else if inClass, line.hasPrefix("---@field ") { fields.insert(String(line.dropFirst(10).split(separator: " ")[0])) }
            else if inClass, !line.hasPrefix("---") { inClass = false }
        }
        return fields
    }

    private func schema(_ name: String) throws -> (properties: Set<String>, required: Set<String>) {
        let schema = try #require(try OpenAPIDocument.load().resolve("#/components/schemas/\(name)"))
        return (Set(schema["properties"]?.object?.keys.map { $0 } ?? []),
                Set(schema["required"]?.array?.compactMap(\.string) ?? []))
    }

    @Test func aContainerHasTheSameFieldsInSwiftJSONOpenAPILuaAndItsTypes() throws {
        let fixture = try HostFixture(attaches: false)
        let operations = fixture.host.containerOperations
        let bare = try operations.create(name: "Bare", description: nil)
        _ = try operations.create(name: "Full", description: "every field")
        _ = try operations.activate("Full")
        let full = try operations.info("Full")

        let openAPI = try schema("Container")
        #expect(try keys(full) == openAPI.properties)
        #expect(try keys(bare) == openAPI.required)

        let luaTable = try fixture.run("return container.get('Full')").first
        guard case .table(let table)? = luaTable else { Issue.record("container.get gave \(String(describing: luaTable))"); return }
        let luaKeys = Set(table.fields.keys.compactMap(\.stringValue))
        // A script's table is the view without the size on disk, which only `info` measures.
        #expect(luaKeys == (try keys(full)).subtracting(["disk_usage"]))
        #expect(try luaFields(of: "container.Info") == luaKeys)
    }

    @Test func theListAndADamagedContainerMatchTheirSchemasToo() throws {
        let fixture = try HostFixture(attaches: false)
        let operations = fixture.host.containerOperations
        let made = try operations.create(name: "Soon damaged", description: nil)
        let record = fixture.host.configuration.home
            .appendingPathComponent(".envscript-containers/containers/\(made.uuid)/container.json")
        try Data("not json".utf8).write(to: record)

        let list = try operations.list()
        #expect(try keys(list) == schema("ContainerList").properties)
        let damaged = try #require(list.damaged.first)
        #expect(try keys(damaged) == schema("DamagedContainer").properties)
        #expect(try keys(damaged) == schema("DamagedContainer").required)
        #expect(try luaFields(of: "container.Damaged") == keys(damaged))
    }
}
