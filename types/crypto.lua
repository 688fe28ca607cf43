---@meta crypto
-- What decryptors of secret values need (swift-crypto).

---@class crypto
crypto = {}

--- Base64 of a string.
---@param data string
---@return string
function crypto.base64_encode(data) end

--- The bytes of base64 text.
---@param text string
---@return string
function crypto.base64_decode(text) end

--- The SHA-256 digest, in hex.
---@param data string
---@return string
function crypto.sha256(data) end

--- Encrypts with AES-GCM; returns base64 of nonce, ciphertext and tag.
---@param key string base64 of 16, 24 or 32 bytes
---@param plaintext string
---@return string
function crypto.aes_gcm_seal(key, plaintext) end

--- Decrypts what aes_gcm_seal made; fails clearly with a wrong key.
---@param key string base64 of 16, 24 or 32 bytes
---@param sealed string
---@return string
function crypto.aes_gcm_open(key, sealed) end

return crypto
