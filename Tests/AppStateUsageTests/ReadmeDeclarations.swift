import AppState
import Foundation
import Locking

// AppState's README, ported: the same declarations, each with an explicit id.

protocol NetworkServiceType: Sendable {
    var name: String { get }
    func fetch() -> String
}

struct NetworkService: NetworkServiceType {
    var name: String { "live" }
    func fetch() -> String { "from the network" }
}

struct MockNetworkService: NetworkServiceType {
    var label = "mock"
    var name: String { label }
    func fetch() -> String { "from the \(label)" }
}

/// A service with a property to change in place (`@DependencySlice`).
final class SettingsService: Sendable {
    private let storedMode = Locked("light")
    var mode: String {
        get { storedMode.withLock { $0 } }
        set { storedMode.withLock { $0 = newValue } }
    }
}

struct Preferences: Codable, Sendable, Equatable {
    var isDarkModeEnabled: Bool
}

struct User: Sendable, Equatable {
    let id: UUID
    var username: String
    var nickname: String?
    var metadata: [String: String]
}

extension Application {
    var isLoading: State<Bool> { state(initial: false, id: "isLoading") }
    var username: State<String> { state(initial: "Leif", id: "username") }
    /// An initial value made from other state.
    var greeting: State<String> { state(initial: "Hello, \(username.value)", id: "greeting") }
    var token: StoredState<String> { storedState(initial: "", id: "token") }
    var notes: FileState<[String]> { fileState(initial: [], id: "notes") }
    var userToken: SecureState<String?> { secureState(id: "userToken") }
    var preferences: StoredState<Preferences> { storedState(initial: Preferences(isDarkModeEnabled: false), id: "preferences") }
    var user: State<User?> { state(initial: nil, id: "user") }
    var dictionary: State<[String: String]> { state(initial: [:], id: "dictionary") }
    var networkService: Dependency<any NetworkServiceType> { dependency(NetworkService(), id: "networkService") }
    var settingsService: Dependency<SettingsService> { dependency(SettingsService(), id: "settingsService") }
}

/// A model as an app writes it: every wrapper, slices of a struct, an optional and a dictionary.
struct ViewModel {
    @AppState(\.username) var username
    @AppState(\.isLoading) var isLoading
    @StoredState(\.token) var token
    @FileState(\.notes) var notes
    @SecureState(\.userToken) var userToken: String?

    @Slice(\.preferences, \.isDarkModeEnabled) var isDarkModeEnabled: Bool
    @Constant(\.preferences, \.isDarkModeEnabled) var darkModeAsSaved: Bool
    @OptionalConstant(\.user, \.id) var id: UUID?
    @OptionalSlice(\.user, \.username) var optionalUsername: String?
    @OptionalSlice(\.user, \.nickname) var nickname: String?
    @OptionalSlice(\.user, \.metadata["lastLogin"]) var lastLogin: String?
    @Slice(\.dictionary, \.["error"]) var error: String?

    @AppDependency(\.networkService) var networkService
    @DependencySlice(\.settingsService, \.mode) var mode: String
    @DependencyConstant(\.networkService, \.name) var serviceName: String
}
