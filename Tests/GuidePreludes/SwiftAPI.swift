// What SwiftAPI.md takes for granted: the reader's own types and folders.
import AppState
import Foundation

let appHome = URL(fileURLWithPath: "/tmp/shop-home")
struct Settings: Codable, Sendable { var isDarkMode = false; var fontSize = 14 }
struct User: Codable, Sendable { var id = UUID(); var nickname: String? }
protocol NetworkService: Sendable { var baseURL: URL { get } }
struct LiveNetworkService: NetworkService { var baseURL = URL(string: "https://shop.example.com")! }
struct MockNetworkService: NetworkService { var baseURL = URL(string: "http://127.0.0.1:8080")! }
final class SettingsService: @unchecked Sendable { var mode = "light" }
extension Application {
    var settingsService: Dependency<SettingsService> { dependency(SettingsService(), id: "settings_service") }
}
