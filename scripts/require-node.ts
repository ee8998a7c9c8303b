// vitest's global setup: on a Node.js the project does not support, stop before any test runs with
// the same sentence the `decorum` command prints, instead of letting the SQLite driver crash workers.
import { unsupported } from "../apps/server/src/NodeVersion.js"

export default function requireSupportedNode(): void {
  const refused = unsupported(process.versions.node)
  if (refused !== undefined) throw new Error(refused)
}
