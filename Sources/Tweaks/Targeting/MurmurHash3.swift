/// MurmurHash3's 32-bit x86 variant (Austin Appleby's public-domain algorithm), seed 0 by default:
/// the hash flagd buckets `fractional` by.
enum MurmurHash3 {
    /// The hash of `bytes`.
    static func hash32(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt32 = 0) -> UInt32 {
        let c1: UInt32 = 0xcc9e_2d51
        let c2: UInt32 = 0x1b87_3593
        var h = seed
        let blockCount = bytes.count / 4
        for block in 0..<blockCount {
            let offset = block * 4
            var k = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
            k &*= c1
            k = k.rotatedLeft(15)
            k &*= c2
            h ^= k
            h = h.rotatedLeft(13)
            h = h &* 5 &+ 0xe654_6b64
        }
        let tail = blockCount * 4
        var k: UInt32 = 0
        switch bytes.count & 3 {
        case 3:
            k ^= UInt32(bytes[tail + 2]) << 16
            fallthrough
        case 2:
            k ^= UInt32(bytes[tail + 1]) << 8
            fallthrough
        case 1:
            k ^= UInt32(bytes[tail])
            k &*= c1
            k = k.rotatedLeft(15)
            k &*= c2
            h ^= k
        default:
            break
        }
        h ^= UInt32(truncatingIfNeeded: bytes.count)
        h ^= h >> 16
        h &*= 0x85eb_ca6b
        h ^= h >> 13
        h &*= 0xc2b2_ae35
        h ^= h >> 16
        return h
    }

    /// The hash of `bytes`.
    static func hash32(_ bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { hash32($0, seed: seed) }
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 { (self << count) | (self >> (32 - count)) }
}
