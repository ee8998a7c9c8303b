/**
 * Scratch directories for tests that write model files: each is removed when the test that made it
 * finishes, passed or failed (a suite run used to leave about 45 MB of copied model files in the
 * temporary directory, run after run).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { onTestFinished } from "vitest"

/** A new empty directory under the system's temporary directory, named `prefix` + random suffix. */
export const scratchDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
