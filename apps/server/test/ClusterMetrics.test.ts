/**
 * The primary's side of `/metrics` under `--workers N`, with workers as plain objects: scrapes that
 * arrive while a collection runs join it (`/metrics` needs no key, so a flood of scrapes must not
 * fan out one round of snapshots per scrape), and every asker gets the merged figures.
 */
import { assert, describe, it } from "@effect/vitest"
import type { Worker } from "node:cluster"
import * as ClusterMetrics from "../src/ClusterMetrics.js"

const fakeWorker = (id: number) => {
  const sent: Array<{ type: string; id: number; text?: string }> = []
  const worker = { id, isConnected: () => true, send: (m: (typeof sent)[number]) => sent.push(m) } as unknown as Worker
  return { worker, sent }
}

const counter = (count: number) => [{ name: "decorum_requests_total", help: "requests", tags: [] as ReadonlyArray<readonly [string, string]>, state: { type: "counter" as const, count } }]

describe("ClusterMetrics.primary", () => {
  it("collects once for scrapes that arrive together, and answers each of them with the sum", () => {
    const a = fakeWorker(1)
    const b = fakeWorker(2)
    const handle = ClusterMetrics.primary(() => [a.worker, b.worker])
    for (let request = 0; request < 50; request++) handle(request % 2 === 0 ? a.worker : b.worker, { type: "decorum-metrics-request", id: request })
    // one round of snapshot requests, not fifty
    const collects = (s: typeof a.sent) => s.filter((m) => m.type === "decorum-metrics-collect")
    assert.strictEqual(collects(a.sent).length, 1)
    assert.strictEqual(collects(b.sent).length, 1)
    const round = collects(a.sent)[0]!.id
    handle(a.worker, { type: "decorum-metrics-snapshot", id: round, series: counter(3) })
    handle(b.worker, { type: "decorum-metrics-snapshot", id: round, series: counter(4) })
    const merged = [...a.sent, ...b.sent].filter((m) => m.type === "decorum-metrics-merged")
    assert.deepStrictEqual(merged.map((m) => m.id).sort((x, y) => x - y), Array.from({ length: 50 }, (_, i) => i))
    for (const m of merged) assert.match(m.text!, /^decorum_requests_total 7$/m)
    // the next scrape starts a new round
    handle(a.worker, { type: "decorum-metrics-request", id: 99 })
    assert.strictEqual(collects(a.sent).length, 2)
  })
})
