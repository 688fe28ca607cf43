import Foundation
import Tweaks
import TestSupport

/// Tweak documents shared by the tests, in JustTweak's format.
enum Fixtures {
    /// Defaults in the style of JustTweak's LocalTweaks_example.json, with one encrypted value.
    static let defaults = """
    {
      "general": {
        "greet_on_app_did_become_active": {
          "Title": "Greet on app launch",
          "Description": "Shows an alert on applicationDidBecomeActive",
          "Group": "General",
          "Value": false
        },
        "tap_to_change_color_enabled": {
          "Title": "Tap to change views color",
          "Group": "General",
          "Value": true,
          "GeneratedPropertyName": "isTapGestureToChangeColorEnabled"
        },
        "answer_to_the_universe": {
          "Title": "Definitive answer",
          "Group": "General",
          "Value": 42
        },
        "encrypted_answer_to_the_universe": {
          "Title": "Encrypted definitive answer",
          "Group": "General",
          "Value": "\(TestCipher.encrypt("24"))",
          "Encrypted": true
        }
      },
      "ui_customization": {
        "display_red_view": { "Title": "Display red view", "Group": "UI", "Value": true },
        "label_text": { "Title": "Label text", "Group": "UI", "Value": "Hello" },
        "red_view_alpha_component": { "Title": "Red view alpha", "Group": "UI", "Value": 1.0 },
        "ui_customization": { "Value": true }
      },
      "checkout": {
        "enabled": { "Value": false },
        "max_items": { "Value": 3 }
      }
    }
    """

    static func defaultsProvider(in folder: TemporaryFolder, name: String = "defaults") throws -> LocalJSONTweakProvider {
        try LocalJSONTweakProvider(fileURL: folder.write(defaults, to: "defaults.json"), name: name)
    }
}
