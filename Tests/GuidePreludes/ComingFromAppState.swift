// What ComingFromAppState.md takes for granted: the reader's own types and folders.
import AppState
import Foundation

struct Profile: Codable, Sendable { var nickname = ""; var joined = Date() }
struct User: Codable, Sendable { var id = UUID(); var email: String? }
protocol ShopAPI: Sendable {}
struct LiveShopAPI: ShopAPI {}
struct MockShopAPI: ShopAPI {}
final class CartService: @unchecked Sendable { var couponCode: String?; let currency = "EUR" }
struct CheckoutFlow { func run() throws {} }
let home = URL(fileURLWithPath: "/tmp/shop-home")
let temporaryHome = URL(fileURLWithPath: "/tmp/shop-test-home")
let keyFile = URL(fileURLWithPath: "/tmp/shop.key")
