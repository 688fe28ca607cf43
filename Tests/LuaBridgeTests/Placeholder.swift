// LuaBridgeTests
