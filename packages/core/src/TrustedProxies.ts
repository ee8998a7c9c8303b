/**
 * The reverse proxies whose forwarded headers are believed (`DECORUM_TRUST_PROXY`): a list of IP
 * addresses and CIDR ranges, IPv4 and IPv6 (`10.0.0.1, 10.1.0.0/16, 2001:db8::/32, ::1`), matched
 * as addresses, not as text: `::ffff:10.0.0.1` is `10.0.0.1`, `2001:DB8:0::1` is `2001:db8::1`.
 * Matching is Node's `net.BlockList`.
 */
import { Either } from "effect"
import { BlockList, isIP } from "node:net"

export interface TrustedProxies {
  /** The entries as configured. */
  readonly entries: ReadonlyArray<string>
  /** Whether `address` (an IP address, IPv6 possibly with a `%zone`) is one of the proxies. */
  readonly has: (address: string) => boolean
}

const familyName = (family: number): "ipv4" | "ipv6" => (family === 6 ? "ipv6" : "ipv4")

/** Adds one entry (`ADDRESS` or `ADDRESS/PREFIX`) to `list`, or says what is wrong with it. */
const add = (list: BlockList, entry: string): string | undefined => {
  const slash = entry.indexOf("/")
  const address = slash < 0 ? entry : entry.slice(0, slash)
  const family = isIP(address)
  if (family === 0) return `${JSON.stringify(entry.slice(0, 64))} is not an IP address or CIDR range`
  if (slash < 0) {
    list.addAddress(address, familyName(family))
    return undefined
  }
  const prefixText = entry.slice(slash + 1)
  const prefix = Number(prefixText)
  const max = family === 6 ? 128 : 32
  if (!/^\d{1,3}$/.test(prefixText) || prefix > max) {
    return `${JSON.stringify(entry.slice(0, 64))}: the prefix length must be a whole number from 0 to ${max}`
  }
  list.addSubnet(address, prefix, familyName(family))
  return undefined
}

/** The proxies of a comma-separated list or of its entries, or what is wrong with the first bad entry. */
export const parse = (value: string | ReadonlyArray<string>): Either.Either<TrustedProxies, string> => {
  const entries = (typeof value === "string" ? value.split(",") : value).map((part) => part.trim()).filter((part) => part !== "")
  const list = new BlockList()
  for (const entry of entries) {
    const problem = add(list, entry)
    if (problem !== undefined) return Either.left(problem)
  }
  const has = (address: string): boolean => {
    const bare = address.trim().replace(/%[^%]*$/, "")
    const family = isIP(bare)
    return family !== 0 && list.check(bare, familyName(family))
  }
  return Either.right({ entries, has: entries.length === 0 ? () => false : has })
}

/** No proxy is trusted. */
export const none: TrustedProxies = { entries: [], has: () => false }
