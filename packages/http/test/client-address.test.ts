/**
 * Trusted proxies (`DECORUM_TRUST_PROXY`) are matched as addresses, not as text: an IPv4-mapped
 * peer is its IPv4 address, an IPv6 address matches however it is written, and CIDR ranges of
 * both families are honoured.
 */
import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { isTrustedProxy, resolve } from "../src/ClientAddress.js"

describe("ClientAddress", () => {
  it("matches a trusted proxy as an address: IPv4-mapped peers, any IPv6 spelling, a zone", () => {
    assert.isTrue(isTrustedProxy("::ffff:10.0.0.1", ["10.0.0.1"]))
    assert.isTrue(isTrustedProxy("10.0.0.1", ["::ffff:10.0.0.1"]))
    assert.isTrue(isTrustedProxy("2001:0DB8:0000:0000:0000:0000:0000:0001", ["2001:db8::1"]))
    assert.isTrue(isTrustedProxy("fe80::1%eth0", ["fe80::1"]))
    assert.isFalse(isTrustedProxy("10.0.0.2", ["10.0.0.1"]))
    assert.isFalse(isTrustedProxy("not an address", ["10.0.0.1"]))
    assert.isFalse(isTrustedProxy("10.0.0.1", []))
  })

  it("honours CIDR ranges of both families", () => {
    const proxies = ["10.1.0.0/16", "2001:db8:aa::/48"]
    assert.isTrue(isTrustedProxy("10.1.200.3", proxies))
    assert.isTrue(isTrustedProxy("::ffff:10.1.0.9", proxies))
    assert.isFalse(isTrustedProxy("10.2.0.1", proxies))
    assert.isTrue(isTrustedProxy("2001:db8:aa:ffff::7", proxies))
    assert.isFalse(isTrustedProxy("2001:db8:ab::7", proxies))
  })

  it("believes X-Forwarded-For from a peer in a trusted range, skipping proxies in the range", () => {
    const proxies = ["10.1.0.0/16"]
    assert.deepStrictEqual(resolve(Option.some("::ffff:10.1.2.3"), "198.51.100.1, 10.1.9.9", proxies), Option.some("198.51.100.1"))
    assert.deepStrictEqual(resolve(Option.some("10.9.0.1"), "198.51.100.1", proxies), Option.some("10.9.0.1"))
  })
})
