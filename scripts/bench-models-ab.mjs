// `npm run bench:models:ab -- REF [ROUNDS]`: `npm run bench:models` of this tree and of commit REF
// (checked out with `npm ci` into a worktree under .decorum/bench-models-ab/), ROUNDS rounds (default 12),
// one process per run, the build that goes first alternating; prints each run's comment-scorer rows
// (comments per CPU-second) and the medians. The whole scorer of this tree over REF's scorer before
// the detector is issue 16's "within 20%"; single pairs move a lot between processes even on an
// idle machine, so read the medians. Reads ../shared/data as bench:models does.
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import { join } from "node:path"
import { REPO_DIR } from "../apps/server/bin/node-runtime.mjs"

const [ref, roundsArg] = process.argv.slice(2)
const rounds = roundsArg === undefined ? 12 : Number(roundsArg)
if (ref === undefined || !/^[0-9a-zA-Z._/-]+$/.test(ref) || !(Number.isInteger(rounds) && rounds > 0)) {
  console.error("usage: npm run bench:models:ab -- REF [ROUNDS]   (REF: a commit; ROUNDS: a whole number, default 12)")
  process.exit(2)
}
let sha
try {
  sha = execFileSync("git", ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`], { cwd: REPO_DIR, encoding: "utf8" }).trim()
} catch {
  console.error(`bench:models:ab: ${ref} is not a commit of this repository`)
  process.exit(2)
}
const other = join(REPO_DIR, ".decorum", "bench-models-ab", sha.slice(0, 12))
if (!existsSync(join(other, "node_modules"))) {
  mkdirSync(join(other, ".."), { recursive: true })
  if (!existsSync(other)) {
    execFileSync("git", ["worktree", "prune"], { cwd: REPO_DIR })
    execFileSync("git", ["worktree", "add", "--detach", other, sha], { cwd: REPO_DIR, stdio: "inherit" })
  }
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: other, stdio: "inherit" })
}
const trees = { [sha.slice(0, 7)]: other, here: REPO_DIR }
const ROWS = { whole: /comment scorer, whole \(scoreComment/, patterns: /before the detector/ }
const runs = []
for (let r = 1; r <= rounds; r++) {
  const order = r % 2 === 1 ? Object.keys(trees) : Object.keys(trees).reverse()
  for (const name of order) {
    const out = spawnSync("npm", ["run", "-s", "bench:models"], { cwd: trees[name], encoding: "utf8", env: { ...process.env, DECORUM_DATA: process.env.DECORUM_DATA ?? join(REPO_DIR, "../shared/data") } })
    if (out.status !== 0) throw new Error(`bench:models in ${trees[name]} failed:\n${out.stderr}`)
    const rate = (re) => Number(/(\d+) per CPU-second/.exec(out.stdout.split("\n").find((l) => re.test(l)) ?? "")?.[1] ?? NaN)
    runs.push({ round: r, name, whole: rate(ROWS.whole), patterns: rate(ROWS.patterns) })
    console.log(`round ${r} ${name}: whole ${runs.at(-1).whole}, patterns ${runs.at(-1).patterns} per CPU-second`)
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
const of = (name, row) => median(runs.filter((x) => x.name === name).map((x) => x[row]))
const [refName] = Object.keys(trees)
console.log(`medians over ${rounds} rounds (comments per CPU-second): ${refName} whole ${of(refName, "whole")}, patterns ${of(refName, "patterns")}; here whole ${of("here", "whole")}, patterns ${of("here", "patterns")}`)
console.log(`here whole / ${refName} patterns, ratio of medians: ${(of("here", "whole") / of(refName, "patterns")).toFixed(3)}`)
