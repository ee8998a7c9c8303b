/**
 * Which IP addresses a server-side fetch may connect to. Refused: unspecified, loopback, private
 * (RFC 1918, IPv6 unique-local), carrier-grade NAT, link-local (including the cloud metadata
 * addresses 169.254.169.254 and fd00:ec2::254), multicast, broadcast, reserved, documentation and
 * benchmarking ranges; IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4) are
 * judged by the IPv4 address they carry, and Teredo is refused outright.
 */
import { isIP } from "node:net"

type V4 = readonly [number, number, number, number]

const parseV4 = (s: string): V4 | null => {
  const parts = s.split(".")
  if (parts.length !== 4) return null
  const out: Array<number> = []
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null
    const n = Number(p)
    if (n > 255) return null
    out.push(n)
  }
  return out as unknown as V4
}

/** Eight 16-bit groups, or null. Accepts `::` compression, a dotted IPv4 tail and a `%zone`. */
export const parseV6 = (input: string): Array<number> | null => {
  let s = input.trim()
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1)
  const zone = s.indexOf("%")
  if (zone >= 0) s = s.slice(0, zone)
  if (isIP(s) !== 6) return null
  const lastColon = s.lastIndexOf(":")
  const maybeV4 = s.slice(lastColon + 1)
  if (maybeV4.includes(".")) {
    const v4 = parseV4(maybeV4)
    if (v4 === null) return null
    s = `${s.slice(0, lastColon + 1)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`
  }
  const [head, rest] = s.includes("::") ? s.split("::") as [string, string] : [s, null]
  const parseGroups = (g: string) => (g.length === 0 ? [] : g.split(":").map((x) => parseInt(x, 16)))
  const left = parseGroups(head)
  const right = rest === null ? [] : parseGroups(rest)
  const fill = 8 - left.length - right.length
  if (rest === null && fill !== 0) return null
  if (fill < 0) return null
  const groups = [...left, ...new Array<number>(rest === null ? 0 : fill).fill(0), ...right]
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null
}

const inV4 = (a: V4, base: V4, bits: number): boolean => {
  const toInt = (x: V4) => ((x[0] << 24) | (x[1] << 16) | (x[2] << 8) | x[3]) >>> 0
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  return ((toInt(a) & mask) >>> 0) === ((toInt(base) & mask) >>> 0)
}

const V4_BLOCKED: ReadonlyArray<readonly [V4, number, string]> = [
  [[0, 0, 0, 0], 8, "unspecified"],
  [[10, 0, 0, 0], 8, "private"],
  [[100, 64, 0, 0], 10, "carrier-grade NAT"],
  [[127, 0, 0, 0], 8, "loopback"],
  [[169, 254, 0, 0], 16, "link-local / metadata"],
  [[172, 16, 0, 0], 12, "private"],
  [[192, 0, 0, 0], 24, "reserved"],
  [[192, 0, 2, 0], 24, "documentation"],
  [[192, 88, 99, 0], 24, "reserved"],
  [[192, 168, 0, 0], 16, "private"],
  [[198, 18, 0, 0], 15, "benchmarking"],
  [[198, 51, 100, 0], 24, "documentation"],
  [[203, 0, 113, 0], 24, "documentation"],
  [[224, 0, 0, 0], 4, "multicast"],
  [[240, 0, 0, 0], 4, "reserved / broadcast"]
]

const v4Reason = (a: V4): string | null => {
  for (const [base, bits, reason] of V4_BLOCKED) if (inV4(a, base, bits)) return reason
  return null
}

const v6Reason = (g: ReadonlyArray<number>): string | null => {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = g as [number, number, number, number, number, number, number, number]
  const embedded = (hi: number, lo: number): V4 => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]
  const zeros = (...xs: Array<number>) => xs.every((x) => x === 0)
  if (zeros(g0, g1, g2, g3, g4, g5, g6, g7)) return "unspecified"
  if (zeros(g0, g1, g2, g3, g4, g5, g6) && g7 === 1) return "loopback"
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible): the IPv4 address decides.
  if (zeros(g0, g1, g2, g3, g4) && (g5 === 0xffff || g5 === 0)) {
    const r = v4Reason(embedded(g6, g7))
    return r === null ? (g5 === 0 ? "IPv4-compatible (deprecated)" : null) : `IPv4-mapped ${r}`
  }
  // ::ffff:0:a.b.c.d (translated)
  if (zeros(g0, g1, g2, g3) && g4 === 0xffff && g5 === 0) return v4Reason(embedded(g6, g7)) ?? null
  // NAT64 64:ff9b::/96 and 64:ff9b:1::/48
  if (g0 === 0x64 && g1 === 0xff9b) {
    const r = v4Reason(embedded(g6, g7))
    return r === null ? null : `NAT64 ${r}`
  }
  if (g0 === 0x2002) {
    const r = v4Reason(embedded(g1, g2))
    return r === null ? null : `6to4 ${r}`
  }
  if (g0 === 0x2001 && g1 === 0) return "Teredo"
  if (g0 === 0x2001 && g1 === 0x0db8) return "documentation"
  if (g0 === 0x0100 && zeros(g1, g2, g3)) return "discard"
  if ((g0 & 0xfe00) === 0xfc00) return "unique-local / metadata"
  if ((g0 & 0xffc0) === 0xfe80) return "link-local"
  if ((g0 & 0xffc0) === 0xfec0) return "site-local"
  if ((g0 & 0xff00) === 0xff00) return "multicast"
  return null
}

/**
 * Why an address must not be fetched from (`"loopback"`, `"private"`, ...), or null when it is a
 * public address. Anything that does not parse is refused.
 */
export const refusedAddressReason = (address: string): string | null => {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const v4 = parseV4(bare)
  if (v4 !== null) return v4Reason(v4)
  const v6 = parseV6(bare)
  if (v6 !== null) return v6Reason(v6)
  return "not an IP address"
}

/** A canonical text form, for comparing addresses (IPv6 groups in full, lowercase). */
export const canonicalAddress = (address: string): string => {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const v4 = parseV4(bare)
  if (v4 !== null) return v4.join(".")
  const v6 = parseV6(bare)
  return v6 === null ? bare.toLowerCase() : v6.map((g) => g.toString(16)).join(":")
}
