/**
 * The `decorum` command in-process: help for every command, `--version`, completions, and usage
 * errors that name the option and exit 2. (The commands against a real store and server run as a
 * child process in Server.test.ts.)
 */
import { ENGINE_VERSION } from "@decorum/core"
import { main } from "@decorum/server"
import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Console, Effect } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { runCli } from "./process.js"
import Database from "better-sqlite3"

/** Runs `decorum ...argv` with its console captured. */
const decorum = (...argv: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const stdout: Array<string> = []
    const stderr: Array<string> = []
    const code = yield* Console.consoleWith((console) =>
      Effect.withConsole(main(argv), {
        ...console,
        log: (...args) => Effect.sync(() => void stdout.push(args.join(" "))),
        error: (...args) => Effect.sync(() => void stderr.push(args.join(" ")))
      })
    )
    return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") }
  })

/** A fresh SQLite file for one test, removed afterwards. */
const tempDb = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "decorum-cli-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

describe("decorum help", () => {
  it.effect("prints help for the command, each group and each subcommand, in plain text when piped", () =>
    Effect.gen(function*() {
      const top = yield* decorum("--help")
      assert.strictEqual(top.code, 0)
      for (const line of ["serve", "keys create", "keys list", "keys revoke", "topics create", "topics list", "topics delete", "feedback export"]) {
        assert.include(top.stdout, `- ${line}`)
      }
      assert.notInclude(top.stdout, "\x1b[", "no ANSI escapes when the output is not a terminal")

      const keys = yield* decorum("keys", "--help")
      assert.strictEqual(keys.code, 0)
      assert.include(keys.stdout, "- create --email EMAIL [--label LABEL] [--json] [--db PATH|URL]")
      assert.include(keys.stdout, "- revoke [--db PATH|URL] <KEY_ID>")

      const create = yield* decorum("keys", "create", "--help")
      assert.strictEqual(create.code, 0)
      assert.include(create.stdout, "--email EMAIL")
      assert.include(create.stdout, "The account's email address.")
      assert.include(create.stdout, "--label LABEL")

      for (const argv of [["serve", "--help"], ["topics", "create", "--help"], ["feedback", "export", "-h"], ["help"]]) {
        const help = yield* decorum(...argv)
        assert.strictEqual(help.code, 0, argv.join(" "))
        assert.include(help.stdout, "USAGE", argv.join(" "))
      }
      assert.include((yield* decorum("feedback", "export", "--help")).stdout, "--format jsonl|csv")
    }))

  it.effect("bare `decorum` prints the help and exits 2", () =>
    Effect.gen(function*() {
      const bare = yield* decorum()
      assert.strictEqual(bare.code, 2)
      assert.include(bare.stdout, "keys create")
    }))

  it.effect("--version (and `version`) prints the engine version", () =>
    Effect.gen(function*() {
      for (const flag of ["--version", "version"]) {
        const out = yield* decorum(flag)
        assert.strictEqual(out.code, 0)
        assert.strictEqual(out.stdout.trim(), ENGINE_VERSION)
      }
    }))

  it.effect("generates shell completions that know the subcommands", () =>
    Effect.gen(function*() {
      for (const shell of ["bash", "zsh", "fish"]) {
        const out = yield* decorum("--completions", shell)
        assert.strictEqual(out.code, 0, shell)
        for (const word of ["keys", "topics", "feedback", "revoke", "export"]) assert.include(out.stdout, word, `${shell}: ${word}`)
      }
      assert.strictEqual((yield* decorum("--completions", "powershell")).code, 2)
    }))
})

describe("decorum usage errors", () => {
  const usage = (argv: ReadonlyArray<string>, message: string) =>
    Effect.gen(function*() {
      const out = yield* decorum(...argv)
      assert.strictEqual(out.code, 2, `decorum ${argv.join(" ")}: ${out.stderr}`)
      assert.include(out.stderr, message, `decorum ${argv.join(" ")}`)
      assert.include(out.stderr, `Run "decorum --help" for usage.`)
      assert.strictEqual(out.stdout, "")
    })

  it.effect("exit 2 with a message that names what was wrong", () =>
    Effect.gen(function*() {
      yield* usage(["nonsense"], "use one of 'serve', 'keys', 'topics', 'feedback'")
      yield* usage(["keys"], "decorum keys needs a command: create, list, revoke")
      yield* usage(["feedback"], "decorum feedback needs a command: export")
      yield* usage(["keys", "create"], "--email")
      yield* usage(["keys", "create", "--email", "not-an-address"], `--email must be an email address, got "not-an-address"`)
      yield* usage(["keys", "create", "--email", "x@y", "--bogus"], "--bogus")
      yield* usage(["keys", "revoke"], "KEY_ID")
      yield* usage(["serve", "--port", "-1"], `--port must be a port number, got "-1"`)
      yield* usage(["serve", "--port", "80.5"], `--port must be a port number, got "80.5"`)
      yield* usage(["serve", "--port", "65536"], `--port must be a port number, got "65536"`)
      yield* usage(["feedback", "export", "--format", "xml"], `--format must be jsonl or csv, got "xml"`)
      yield* usage(["feedback", "export", "--since", "yesterday"], `--since must be an ISO date or time, got "yesterday"`)
      yield* usage(["topics", "create", "--email", "a@b.c", "--text", "t", "--file", "f"], "--text")
      yield* usage(["topics", "create", "--email", "a@b.c"], "--file")
    }))
})

describe("decorum commands in-process", () => {
  it.scoped("keys create, list and revoke against a SQLite file; failures exit 1", () =>
    Effect.gen(function*() {
      const db = join(yield* tempDb, "keys.db")
      const created = yield* decorum("keys", "create", "--email", "Ops@Example.com", "--label", "ci", "--json", "--db", db)
      assert.strictEqual(created.code, 0, created.stderr)
      const body = JSON.parse(created.stdout) as { email: string; key: string; key_id: string }
      assert.strictEqual(body.email, "ops@example.com")
      const listed = yield* decorum("keys", "list", "--db", db)
      assert.include(listed.stdout, `${body.key_id}  ops@example.com`)
      assert.include(listed.stdout, "(ci)")
      // The whole key is accepted where an id is, and a second revocation is a failure, not a usage error.
      assert.strictEqual((yield* decorum("keys", "revoke", body.key, "--db", db)).stdout, `Revoked key ${body.key_id}.`)
      const again = yield* decorum("keys", "revoke", "--db", db, body.key_id)
      assert.strictEqual(again.code, 1)
      assert.strictEqual(again.stderr, `decorum: No active key ${body.key_id}.`)
    }))

  it.scoped("topics create reads --file; a missing file or account is a failure (exit 1)", () =>
    Effect.gen(function*() {
      const dir = yield* tempDb
      const db = join(dir, "topics.db")
      const article = join(dir, "article.txt")
      writeFileSync(article, "Municipal composting cuts landfill methane and returns nutrients to urban gardens.")
      assert.strictEqual((yield* decorum("keys", "create", "--email", "ed@example.com", "--db", db)).code, 0)
      const created = yield* decorum("topics", "create", "--email", "ed@example.com", "--file", article, "--title", "Compost", "--json", "--db", db)
      assert.strictEqual(created.code, 0, created.stderr)
      const { article_id } = JSON.parse(created.stdout) as { article_id: string }
      const listed = JSON.parse((yield* decorum("topics", "list", "--email", "ed@example.com", "--json", "--db", db)).stdout)
      assert.deepStrictEqual(listed.map((c: { article_id: string; title: string; text_length: number }) => [c.article_id, c.title, c.text_length]), [[article_id, "Compost", 82]])
      const missing = yield* decorum("topics", "create", "--email", "ed@example.com", "--file", join(dir, "absent.txt"), "--db", db)
      assert.strictEqual(missing.code, 1)
      assert.include(missing.stderr, "absent.txt")
      const nobody = yield* decorum("topics", "list", "--email", "nobody@example.com", "--db", db)
      assert.strictEqual(nobody.code, 1)
      assert.include(nobody.stderr, "No account nobody@example.com")
    }))
})

describe("decorum feedback import", () => {
  it.scoped("stores a site's past decisions (CSV and JSON lines) as its corrections; a bad row imports nothing", () =>
    Effect.gen(function*() {
      const dir = yield* tempDb
      const db = join(dir, "feedback.db")
      assert.strictEqual((yield* decorum("keys", "create", "--email", "mod@example.com", "--db", db)).code, 0)
      const csv = join(dir, "decisions.csv")
      writeFileSync(csv, "text,attribute,score\n\"Pineapple, on pizza\",TOXICITY,1\nMushrooms are fine,toxicity,0\n")
      const jsonl = join(dir, "decisions.jsonl")
      writeFileSync(jsonl, JSON.stringify({ text: "You absolute walnut", attribute: "INSULT", score: 0.9 }) + "\n")
      const first = yield* decorum("feedback", "import", csv, "--email", "mod@example.com", "--db", db)
      assert.strictEqual(first.code, 0, first.stderr)
      assert.include(first.stdout, "Imported 2 corrections")
      assert.strictEqual((yield* decorum("feedback", "import", jsonl, "--email", "mod@example.com", "--db", db)).code, 0)
      const bad = join(dir, "bad.csv")
      writeFileSync(bad, "text,attribute,score\nfine,TOXICITY,0\nworse,TOXICITY,7\n")
      const refused = yield* decorum("feedback", "import", bad, "--email", "mod@example.com", "--db", db)
      assert.strictEqual(refused.code, 2)
      assert.include(refused.stderr, "line 3")
      const exported = (yield* decorum("feedback", "export", "--email", "mod@example.com", "--db", db)).stdout.split("\n").map((l) => JSON.parse(l))
      assert.deepStrictEqual(
        exported.map((r: { comment_text: string; attribute_scores: Record<string, number> }) => [r.comment_text, r.attribute_scores]),
        [["Pineapple, on pizza", { TOXICITY: 1 }], ["Mushrooms are fine", { TOXICITY: 0 }], ["You absolute walnut", { INSULT: 0.9 }]]
      )
      // An operator's import has no key: no revocation can leave it out of a fit.
      assert.deepStrictEqual(exported.map((r: { key_id: string | null }) => r.key_id), [null, null, null])
    }))
})

describe("decorum feedback import on files it must refuse", () => {
  /** A database with mod@example.com's account, and a file of decisions in it. */
  const setUp = Effect.gen(function*() {
    const dir = yield* tempDb
    const db = join(dir, "feedback.db")
    assert.strictEqual((yield* decorum("keys", "create", "--email", "mod@example.com", "--db", db)).code, 0)
    return { dir, db }
  })
  const exportedTexts = (db: string) =>
    Effect.map(decorum("feedback", "export", "--email", "mod@example.com", "--db", db), (out) =>
      out.stdout.trim() === "" ? [] : out.stdout.split("\n").map((l) => (JSON.parse(l) as { comment_text: string }).comment_text))

  it.scoped("refuses a file over --max-bytes (default 64 MiB), naming the limit, and imports nothing", () =>
    Effect.gen(function*() {
      const { dir, db } = yield* setUp
      const file = join(dir, "big.csv")
      writeFileSync(file, "text,attribute,score\n" + "Some comment,TOXICITY,0\n".repeat(100))
      const refused = yield* decorum("feedback", "import", file, "--email", "mod@example.com", "--db", db, "--max-bytes", "1000")
      assert.strictEqual(refused.code, 2, refused.stderr)
      assert.include(refused.stderr, "is larger than 1,000 bytes, the most feedback import reads (--max-bytes)")
      assert.include(refused.stderr, "nothing was imported")
      assert.deepStrictEqual(yield* exportedTexts(db), [])
      assert.strictEqual((yield* decorum("feedback", "import", file, "--email", "mod@example.com", "--db", db, "--max-bytes", "2421")).code, 0)
      assert.lengthOf(yield* exportedTexts(db), 100)
      assert.include((yield* decorum("feedback", "import", "--help")).stdout, "--max-bytes BYTES")
      assert.strictEqual((yield* decorum("feedback", "import", file, "--email", "mod@example.com", "--db", db, "--max-bytes", "lots")).code, 2)
    }))

  it.scoped("refuses bytes that are not UTF-8 with their line number, and imports nothing", () =>
    Effect.gen(function*() {
      const { dir, db } = yield* setUp
      const file = join(dir, "latin1.jsonl")
      writeFileSync(file, Buffer.concat([
        Buffer.from(JSON.stringify({ text: "fine \ufffd", attribute: "TOXICITY", score: 0 }) + "\n"),
        Buffer.from("{\"text\":\"caf"), Buffer.from([0xe9]), Buffer.from("\",\"attribute\":\"TOXICITY\",\"score\":1}\n")
      ]))
      const refused = yield* decorum("feedback", "import", file, "--email", "mod@example.com", "--db", db)
      assert.strictEqual(refused.code, 2, refused.stderr)
      assert.include(refused.stderr, "line 2: the text is not valid UTF-8; nothing was imported")
      assert.deepStrictEqual(yield* exportedTexts(db), [])
    }))

  it.scoped("when the store fails part way, says which lines were imported", () =>
    Effect.gen(function*() {
      const { dir, db } = yield* setUp
      // The store refuses one comment (a trigger), so the import stops after the lines before it.
      const sqlite = new Database(db)
      sqlite.exec("create trigger poison before insert on score_suggestions when new.comment_text = 'poison' begin select raise(abort, 'refused by a trigger'); end")
      sqlite.close()
      const file = join(dir, "decisions.csv")
      writeFileSync(file, "text,attribute,score\none,TOXICITY,0\ntwo,TOXICITY,1\npoison,TOXICITY,1\nfour,TOXICITY,0\n")
      const failed = yield* decorum("feedback", "import", file, "--email", "mod@example.com", "--db", db)
      assert.strictEqual(failed.code, 1, failed.stderr)
      assert.include(failed.stderr, "the store failed at line 4 after importing 2 of 4 corrections (lines 2 to 3); import from line 4 on again")
      assert.deepStrictEqual(yield* exportedTexts(db), ["one", "two"])
    }))
})

describe("decorum with bad configuration", () => {
  it.live("serve exits 1 naming each bad variable, without a stack trace", () =>
    Effect.gen(function*() {
      const out = yield* Effect.promise(() =>
        runCli(["serve", "--port", "0", "--db", ":memory:"], { DECORUM_ENGINE: "foo", DECORUM_FETCH_MAX_BYTES: "-1" })
      )
      assert.strictEqual(out.code, 1, out.stderr)
      assert.include(out.stderr, "DECORUM_ENGINE=foo: must be one of local, llm, cascade")
      assert.include(out.stderr, "DECORUM_FETCH_MAX_BYTES=-1: must be a whole number >= 1")
      assert.notMatch(out.stderr, /^\s+at /m)
    }))

  it.effect("a store command refuses an unsupported --db (exit 2) and DECORUM_DB (exit 1), naming it", () =>
    Effect.gen(function*() {
      const flag = yield* decorum("keys", "list", "--db", "mysql://root:hunter2@db/x")
      assert.strictEqual(flag.code, 2)
      assert.include(flag.stderr, `--db must be a SQLite file path, a postgres:// URL or "memory" (mysql:// is not supported), got "mysql://root:***@db/x"`)
      const env = yield* decorum("keys", "list").pipe(
        Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["DECORUM_DB", "mysql://db/x"]])))
      )
      assert.strictEqual(env.code, 1)
      assert.include(env.stderr, "DECORUM_DB=mysql://db/x: must be a SQLite file path")
    }))
})
