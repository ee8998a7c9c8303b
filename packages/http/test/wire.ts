/**
 * Requests sent below `fetch`: a chosen body framing (Content-Length, chunked, none), raw bytes on
 * a socket, and the process heap after a forced garbage collection. Shared by the hardening and
 * fuzz suites.
 */
import { request as httpRequest, Agent } from "node:http"
import { connect } from "node:net"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

export interface WireAnswer {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly text: string
  /** The body as JSON, or undefined when it is not JSON. */
  readonly json: any
}

export interface WireRequest {
  readonly method?: string
  readonly path: string
  readonly headers?: Record<string, string>
  /** The body as pieces; `framing` decides how they are sent. */
  readonly chunks?: ReadonlyArray<string | Buffer>
  /** `length`: one Content-Length; `chunked`: Transfer-Encoding: chunked, one chunk per piece. */
  readonly framing?: "length" | "chunked"
  readonly agent?: Agent
}

const parse = (text: string) => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * Sends one request with node:http and resolves with the answer, even when the server answers
 * before the body is fully sent (as it must for an oversize body) and then cuts the upload.
 */
export const send = (url: string, req: WireRequest): Promise<WireAnswer> =>
  new Promise((resolve, reject) => {
    const chunks = (req.chunks ?? []).map((c) => (typeof c === "string" ? Buffer.from(c) : c))
    const total = chunks.reduce((n, c) => n + c.length, 0)
    const headers: Record<string, string> = { ...(req.headers ?? {}) }
    if (req.framing === "chunked") headers["transfer-encoding"] = "chunked"
    else if (chunks.length > 0) headers["content-length"] = String(total)
    const r = httpRequest(url + req.path, { method: req.method ?? "POST", headers, agent: req.agent ?? false })
    let answered = false
    r.on("response", (res) => {
      answered = true
      const body: Array<Buffer> = []
      res.on("data", (c: Buffer) => body.push(c))
      res.on("end", () => {
        const text = Buffer.concat(body).toString("utf8")
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parse(text) })
      })
      res.on("error", reject)
    })
    r.on("error", (error) => {
      if (!answered) reject(error)
    })
    const write = (i: number): void => {
      if (i >= chunks.length) {
        r.end()
        return
      }
      if (r.destroyed) return
      const ok = r.write(chunks[i]!)
      if (ok) setImmediate(() => write(i + 1))
      else r.once("drain", () => write(i + 1))
    }
    write(0)
  })

/** Writes raw bytes on a socket and resolves with everything the server sent until it closed. */
export const raw = (url: string, bytes: string | Buffer, timeoutMs = 5_000): Promise<string> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect({ host: hostname, port: Number(port) })
    const out: Array<Buffer> = []
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    socket.on("data", (c: Buffer) => out.push(c))
    socket.on("error", () => {})
    socket.on("close", () => {
      clearTimeout(timer)
      resolve(Buffer.concat(out).toString("latin1"))
    })
    socket.on("connect", () => {
      socket.write(bytes)
    })
    socket.on("error", reject)
  })

let collect: (() => void) | undefined

/** Heap in use after a full garbage collection, in bytes. */
export const heapAfterGc = (): number => {
  if (!collect) {
    setFlagsFromString("--expose-gc")
    collect = runInNewContext("gc") as () => void
  }
  collect()
  collect()
  return process.memoryUsage().heapUsed
}

/** `n` bytes of a JSON-looking body (a long comment), split into pieces of `piece` bytes. */
export const bigBody = (n: number, piece = 64 * 1024): Array<Buffer> => {
  const out: Array<Buffer> = []
  const head = Buffer.from('{"comment":"')
  out.push(head)
  let left = n - head.length
  while (left > 0) {
    const size = Math.min(piece, left)
    out.push(Buffer.alloc(size, "a"))
    left -= size
  }
  return out
}
