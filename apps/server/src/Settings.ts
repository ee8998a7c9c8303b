/** Host settings read from the environment (flags override them). */
export const defaultDb = (): string => process.env["DECORUM_DB"]?.trim() || process.env["DATABASE_URL"]?.trim() || "./decorum.db"

export const defaultPort = (): number => {
  const raw = process.env["PORT"]
  const port = raw === undefined || raw.trim() === "" ? 8080 : Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${raw}"`)
  return port
}

export const defaultHost = (): string => process.env["HOST"]?.trim() || "0.0.0.0"
