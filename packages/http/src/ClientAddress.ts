/**
 * The address of the client a request comes from, for limits kept per address (failed
 * authentications).
 *
 * It is the connection's peer (the socket's remote address on Node; the event's source IP on
 * Lambda, given as `PeerAddress`), except when that peer is one of the trusted reverse proxies
 * (`DECORUM_TRUST_PROXY`: addresses and CIDR ranges): then it is the right-most `X-Forwarded-For` entry that is not itself a
 * trusted proxy. Entries further left were written by the client and are never believed (anyone
 * could send `X-Forwarded-For: 1.2.3.4` to pass for someone else). An untrusted entry that is not
 * an IP address (a misconfigured proxy) leaves the peer as the client.
 */
import { TrustedProxies } from "@decorum/core"
import { HttpServerRequest } from "@effect/platform"
import { Context, Effect, Either, Option } from "effect"
import { isIP } from "node:net"
import { HttpConfig } from "./HttpConfig.js"

/**
 * The peer of a request whose `HttpServerRequest` carries no socket address: the Lambda host
 * provides the event's source IP here. A socket's own address wins when there is one.
 */
export class PeerAddress extends Context.Tag("@decorum/http/PeerAddress")<PeerAddress, string>() {}

/** An address as compared: lowercased, an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) as its IPv4 address. */
export const normalise = (address: string): string => address.trim().toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "")

/**
 * The matcher of each configured list, built once (the list is the configuration's own array).
 * Module cache, a documented constant: keyed weakly by the configuration's array, so each
 * configuration has its own matcher and it goes with the configuration.
 */
const matchers = new WeakMap<ReadonlyArray<string>, TrustedProxies.TrustedProxies>()

/**
 * `trustProxy` (addresses and CIDR ranges, as `DECORUM_TRUST_PROXY`, which the engine checks at
 * start-up) as a matcher; an entry that is neither (given to `HttpConfig` directly) matches nothing.
 */
const matcherOf = (trustProxy: ReadonlyArray<string>): TrustedProxies.TrustedProxies => {
  let matcher = matchers.get(trustProxy)
  if (matcher === undefined) {
    matcher = Either.getOrElse(
      TrustedProxies.parse(trustProxy),
      () => Either.getOrElse(TrustedProxies.parse(trustProxy.filter((entry) => Either.isRight(TrustedProxies.parse([entry])))), () => TrustedProxies.none)
    )
    matchers.set(trustProxy, matcher)
  }
  return matcher
}

/** Whether `peer` is one of the trusted proxies (an address listed, or in a range listed; compared as addresses). */
export const isTrustedProxy = (peer: string, trustProxy: ReadonlyArray<string>): boolean =>
  trustProxy.length > 0 && matcherOf(trustProxy).has(peer)

/**
 * One `X-Forwarded-For` entry as an address: quotes, `[v6]` brackets, a `:port` and an IPv6 zone
 * removed. Undefined when what is left is not an IP address.
 */
export const forwardedEntry = (entry: string): string | undefined => {
  let value = entry.trim().replace(/^"(.*)"$/, "$1").trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)
  if (bracketed) value = bracketed[1]!
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"))
  value = value.replace(/%[^%]*$/, "")
  return isIP(value) === 0 ? undefined : normalise(value)
}

/** Most `X-Forwarded-For` entries read (from the right); a longer header is no more believable. */
const MAX_FORWARDED_ENTRIES = 32

/** The client address of a request from `peer`, given its `X-Forwarded-For` header(s). */
export const resolve = (
  peer: Option.Option<string>,
  forwardedFor: string | ReadonlyArray<string> | undefined,
  trustProxy: ReadonlyArray<string>
): Option.Option<string> => {
  if (Option.isNone(peer)) return peer
  const own = Option.some(normalise(peer.value))
  if (!isTrustedProxy(peer.value, trustProxy) || forwardedFor === undefined) return own
  const entries = (typeof forwardedFor === "string" ? [forwardedFor] : forwardedFor).join(",").split(",")
  for (let i = entries.length - 1, read = 0; i >= 0 && read < MAX_FORWARDED_ENTRIES; i--) {
    if (entries[i]!.trim() === "") continue
    read++
    const address = forwardedEntry(entries[i]!)
    if (address === undefined) return own
    if (!isTrustedProxy(address, trustProxy)) return Option.some(address)
  }
  return own
}

/** The peer of the current request: its socket's address, else the host's `PeerAddress`. */
export const peer: Effect.Effect<Option.Option<string>, never, HttpServerRequest.HttpServerRequest> = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (Option.isSome(request.remoteAddress)) return request.remoteAddress
  return yield* Effect.serviceOption(PeerAddress)
})

/** The client address of the current request (none when the host knows no peer). */
export const current: Effect.Effect<Option.Option<string>, never, HttpServerRequest.HttpServerRequest> = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const config = yield* Effect.serviceOption(HttpConfig)
  const trustProxy = Option.match(config, { onNone: () => [], onSome: (c) => c.trustProxy })
  return resolve(yield* peer, request.headers["x-forwarded-for"], trustProxy)
})
