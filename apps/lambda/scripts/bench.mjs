#!/usr/bin/env node
/**
 * `npm run bench:lambda`: the size of the Lambda bundle and its cold start, measured the way Lambda
 * starts a function: a fresh `node` process imports dist/handler.mjs (module initialisation builds
 * the engine: models, PostgreSQL pool, migrations) and handles its first event. Three series, whose
 * first event is `GET /healthz`, a Google-shaped analyze request (three attributes), and a native
 * dog-whistle check (the first request to need an optional detector, which decodes its weights on
 * first use), each on a Function URL (payload 2.0) event.
 *
 * Also prints the CPU time of the cold start (import and first event, all threads), which the
 * machine's load moves far less than the wall clock.
 *
 * Needs PostgreSQL: DATABASE_URL (e.g. `eval "$(bash .ci/start-postgres.sh)"`). Works in a schema
 * of its own, dropped at the end. Options: --runs N (default 7), --no-bundle (measure dist as is).
 */
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { loadavg } from "node:os"
import { gzipSync } from "node:zlib"

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const dist = join(root, "apps/lambda/dist")
const handlerFile = join(dist, "handler.mjs")
const cache = join(root, "node_modules/.cache/decorum-bench-lambda")
const args = process.argv.slice(2)
const runs = Number(args[args.indexOf("--runs") + 1]) || 7

const databaseUrl = process.env["DATABASE_URL"]
if (!databaseUrl) {
  console.error("bench:lambda needs PostgreSQL: set DATABASE_URL (eval \"$(bash .ci/start-postgres.sh)\")")
  process.exit(2)
}

if (!args.includes("--no-bundle")) {
  const r = spawnSync(process.execPath, [join(root, "apps/lambda/scripts/bundle.mjs")], { stdio: "inherit" })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

// ---------------------------------------------------------------- size
const bytes = readFileSync(handlerFile)
// Every chunk the handler may import (the /docs page's script among them, read only on its first request).
const allJs = Buffer.concat(readdirSync(dist).filter((f) => f.endsWith(".mjs")).map((f) => readFileSync(join(dist, f))))
const models = join(dist, "models")
const modelBytes = existsSync(models)
  ? readdirSync(models, { recursive: true }).map((f) => join(models, String(f))).filter((f) => statSync(f).isFile()).reduce((s, f) => s + statSync(f).size, 0)
  : 0
const mib = (n) => `${(n / 1024 / 1024).toFixed(2)} MiB`

// ---------------------------------------------------------------- a schema and an API key
mkdirSync(cache, { recursive: true })
const setupFile = join(cache, "setup.mjs")
const workspaces = {
  "@decorum/domain": "packages/domain/src/index.ts",
  "@decorum/core": "packages/core/src/index.ts",
  "@decorum/store-sql": "packages/store-sql/src/index.ts"
}
writeFileSync(join(cache, "setup.ts"), `
import { Auth } from "@decorum/core"
import { PgStore } from "@decorum/store-sql"
import { Effect } from "effect"
export const createKey = (url: string) =>
  Effect.runPromise(Effect.map(Auth.createKey("bench@example.com"), (k) => k.key).pipe(Effect.provide(PgStore.layer({ url }))))
`)
await build({
  entryPoints: [join(cache, "setup.ts")],
  outfile: setupFile,
  bundle: true,
  platform: "node",
  format: "esm",
  packages: "external",
  alias: Object.fromEntries(Object.entries(workspaces).map(([k, v]) => [k, join(root, v)])),
  logLevel: "error"
})
const pg = (await import(pathToFileURL(join(root, "node_modules/pg/lib/index.js")).href)).default
const schema = `decorum_bench_${process.pid}`
const admin = new pg.Client({ connectionString: databaseUrl })
await admin.connect()
await admin.query(`create schema ${schema}`)
const url = new URL(databaseUrl)
url.searchParams.set("options", `-c search_path=${schema}`)
const { createKey } = await import(pathToFileURL(setupFile).href)

try {
  const key = await createKey(url.toString())

  // ---------------------------------------------------------------- cold starts
  const probe = join(cache, "probe.mjs")
  writeFileSync(probe, `
const event = (method, rawPath, rawQueryString, body, headers = {}) => ({
  version: "2.0", routeKey: "$default", rawPath, rawQueryString,
  headers: { host: "bench.lambda-url.us-east-1.on.aws", "x-forwarded-proto": "https", "content-type": "application/json", ...headers },
  requestContext: { http: { method, path: rawPath }, stage: "$default", domainName: "bench.lambda-url.us-east-1.on.aws" },
  isBase64Encoded: false, ...(body ? { body } : {})
})
const events = {
  healthz: event("GET", "/healthz", ""),
  analyze: event("POST", "/v1alpha1/comments:analyze", "key=" + process.env.BENCH_KEY,
    JSON.stringify({ comment: { text: "You are an idiot, and this plan is stupid." }, requestedAttributes: { TOXICITY: {}, INSULT: {}, PROFANITY: {} } })),
  dogwhistle: event("POST", "/v0.2/dogwhistle", "", JSON.stringify({ comment: "The globalist bankers control the media. Wake up, people." }),
    { "x-user-email": "bench@example.com", "x-api-key": process.env.BENCH_KEY })
}
const c0 = process.cpuUsage()
const t0 = performance.now()
const { handler } = await import(${JSON.stringify(pathToFileURL(handlerFile).href)})
const t1 = performance.now()
const first = await handler(events[process.env.BENCH_FIRST])
const t2 = performance.now()
const c2 = process.cpuUsage(c0)
const second = await handler(events[process.env.BENCH_FIRST])
const t3 = performance.now()
process.stdout.write(JSON.stringify({ init: t1 - t0, first: t2 - t1, cpu: (c2.user + c2.system) / 1000, warm: t3 - t2, status: first.statusCode, body: first.body.slice(0, 120) }) + "\\n")
await handler.dispose()
`)
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const series = (first) => {
    const samples = []
    for (let i = 0; i < runs; i++) {
      const started = performance.now()
      const r = spawnSync(process.execPath, [probe], {
        env: { ...process.env, DECORUM_DB: url.toString(), BENCH_KEY: key, BENCH_FIRST: first },
        encoding: "utf8"
      })
      const wall = performance.now() - started
      const line = r.stdout.trim().split("\n").filter((l) => l.startsWith("{\"init\"")).pop()
      if (r.status !== 0 || !line) throw new Error(`probe failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
      const s = JSON.parse(line)
      if (s.status !== 200) throw new Error(`first ${first} answered ${s.status}: ${s.body}`)
      samples.push({ ...s, wall })
    }
    return {
      init: median(samples.map((s) => s.init)),
      first: median(samples.map((s) => s.first)),
      coldStart: median(samples.map((s) => s.init + s.first)),
      cpu: median(samples.map((s) => s.cpu)),
      warm: median(samples.map((s) => s.warm)),
      wall: median(samples.map((s) => s.wall))
    }
  }
  const ms = (n) => `${n.toFixed(0)} ms`
  const ms1 = (n) => `${n.toFixed(1)} ms`
  console.log(`\nbundle: handler.mjs ${mib(bytes.length)}, all chunks ${mib(allJs.length)} (${mib(gzipSync(allJs, { level: 9 }).length)} gzipped, about the zip's size); models ${modelBytes ? mib(modelBytes) : "none (lexicon model)"}`)
  console.log(`node ${process.version}, ${runs} fresh processes per series, medians; PostgreSQL at ${url.hostname}:${url.port}; load average ${loadavg()[0].toFixed(1)}\n`)
  console.log("first event                    | import + init | first event | cold start | its CPU time | next event | process wall")
  const labels = { healthz: "GET /healthz", analyze: "POST comments:analyze (3 attr)", dogwhistle: "POST /v0.2/dogwhistle" }
  for (const first of ["healthz", "analyze", "dogwhistle"]) {
    const r = series(first)
    const label = labels[first]
    console.log(`${label.padEnd(30)} | ${ms(r.init).padStart(13)} | ${ms1(r.first).padStart(11)} | ${ms(r.coldStart).padStart(10)} | ${ms(r.cpu).padStart(12)} | ${ms1(r.warm).padStart(10)} | ${ms(r.wall).padStart(12)}`)
  }
} finally {
  await admin.query(`drop schema if exists ${schema} cascade`)
  await admin.end()
}
