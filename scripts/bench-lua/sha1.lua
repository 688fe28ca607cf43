-- A pure-Lua SHA-1 (Lua 5.4's integer and bitwise operators) for scripts/bench (group scenarios): the
-- kind of computation a QA suite does in its tests, where the VM's own speed shows.
local function rotate(x, n)
  return ((x << n) | (x >> (32 - n))) & 0xffffffff
end

local function sha1(message)
  local h0, h1, h2, h3, h4 = 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0
  local length = #message
  message = message .. "\128" .. string.rep("\0", (55 - length) % 64) .. string.pack(">I8", length * 8)
  local w = {}
  for chunk = 1, #message, 64 do
    for i = 0, 15 do w[i] = string.unpack(">I4", message, chunk + i * 4) end
    for i = 16, 79 do w[i] = rotate(w[i - 3] ~ w[i - 8] ~ w[i - 14] ~ w[i - 16], 1) end
    local a, b, c, d, e = h0, h1, h2, h3, h4
    for i = 0, 79 do
      local f, k
      if i < 20 then f, k = (b & c) | (~b & d), 0x5A827999
      elseif i < 40 then f, k = b ~ c ~ d, 0x6ED9EBA1
      elseif i < 60 then f, k = (b & c) | (b & d) | (c & d), 0x8F1BBCDC
      else f, k = b ~ c ~ d, 0xCA62C1D6 end
      local t = (rotate(a, 5) + (f & 0xffffffff) + e + k + w[i]) & 0xffffffff
      a, b, c, d, e = t, a, rotate(b, 30), c, d
    end
    h0, h1, h2, h3, h4 = (h0 + a) & 0xffffffff, (h1 + b) & 0xffffffff, (h2 + c) & 0xffffffff,
      (h3 + d) & 0xffffffff, (h4 + e) & 0xffffffff
  end
  return string.format("%08x%08x%08x%08x%08x", h0, h1, h2, h3, h4)
end

return sha1
