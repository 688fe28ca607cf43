import Foundation

/// A small application project for the tweak and container commands: a start-up script whose stack
/// puts the overrides over a shipped tweaks file, and a will-change hook that refuses the container
/// `Frozen` (with `error(...)`, on line 5).
enum ShopProject {
    static let startupScript = """
        tweak.stack{ tweak.overrides(), tweak.json("tweaks.json", "shipped") }

        container.on_will_change(function(to, from)
          if to.name == "Frozen" then
            error("Frozen is kept for the release check; clone it instead")
          end
        end)

        """
    static let tweaks = """
        { "checkout": { "button_color": { "Value": "blue" }, "max_items": { "Value": 20 } } }
        """

    /// Writes the project into `folder` of `scratch` ("" for its top) and returns that folder.
    @discardableResult
    static func write(in scratch: Scratch, folder: String = "") throws -> URL {
        let prefix = folder.isEmpty ? "" : folder + "/"
        try scratch.write(prefix + "envscript.lua", startupScript)
        try scratch.write(prefix + "tweaks.json", tweaks)
        return folder.isEmpty ? scratch.url : scratch.url.appendingPathComponent(folder)
    }
}
