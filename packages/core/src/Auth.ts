/**
 * API keys: generation, hashing and verification.
 *
 * A key looks like `dk_<keyId>_<secret>`: the key id (10 base32 characters) is public and names
 * the key in listings and revocation; the secret carries 192 random bits. Only the SHA-256 of the
 * whole key is stored. Keys are high-entropy, so a fast hash is the right tool (no password
 * stretching is needed), and the comparison of hashes runs in constant time.
 */
import { type Account, Unauthorized } from "@decorum/domain"
import { Effect, Either, Option } from "effect"
import { createHash } from "node:crypto"
import { AccountStore, type StoredKey } from "./Stores.js"

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567"

const randomBase32 = (length: number): string => {
  const bytes = new Uint8Array(length)
  globalThis.crypto.getRandomValues(bytes)
  let out = ""
  for (const b of bytes) out += BASE32[b & 31]
  return out
}

const randomBase64Url = (byteLength: number): string => {
  const bytes = new Uint8Array(byteLength)
  globalThis.crypto.getRandomValues(bytes)
  return Buffer.from(bytes).toString("base64url")
}

const KEY_RE = /^dk_([a-z2-7]{10})_([A-Za-z0-9_-]{32})$/

export interface GeneratedKey {
  readonly key: string
  readonly keyId: string
  readonly hash: string
}

/** SHA-256 of a key, as a plain function (`hashKey` is this in an effect). */
const hashNow = (key: string): string => createHash("sha256").update(key).digest("hex")

/**
 * SHA-256 of a key, synchronously: WebCrypto's digest is asynchronous and hops to the thread pool
 * on every request, which costs more than the hash itself on the authentication hot path.
 */
export const hashKey = (key: string): Effect.Effect<string> => Effect.sync(() => hashNow(key))

/** A new random key (10 + 192 bits of randomness) with its id and hash. */
export const generateKey: Effect.Effect<GeneratedKey> = Effect.suspend(() => {
  const keyId = randomBase32(10)
  const key = `dk_${keyId}_${randomBase64Url(24)}`
  return Effect.map(hashKey(key), (hash) => ({ key, keyId, hash }))
})

/** Compares two strings in time that depends only on their lengths. */
export const constantTimeEquals = (a: string, b: string): boolean => {
  let diff = a.length ^ b.length
  const n = Math.max(a.length, b.length)
  for (let i = 0; i < n; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0)
  return diff === 0
}

export const parseKeyId = (key: string): string | undefined => KEY_RE.exec(key)?.[1]

const INVALID = "Invalid user ID or API key."

/** Creates (or reuses) the account of `email` and gives it a new key. Returns the key once. */
export const createKey = (email: string, label: string | null = null) =>
  Effect.gen(function*() {
    const store = yield* AccountStore
    const account = yield* store.ensureAccount(email)
    const generated = yield* generateKey
    yield* store.insertKey({ accountId: account.id, keyId: generated.keyId, hash: generated.hash, label })
    return { account, key: generated.key, keyId: generated.keyId }
  }).pipe(Effect.withSpan("Auth.createKey", { captureStackTrace: false }))

/** Who sent a request: the account, and the public id of the key it authenticated with. */
export interface Caller {
  readonly account: Account
  readonly keyId: string
}

/**
 * The verdict on a key once its stored row (if any) is known: the caller when the row exists, is
 * not revoked and holds the key's hash (compared in constant time).
 */
const verdict = (keyId: string, hash: string, stored: Option.Option<StoredKey>): Option.Option<Caller> => {
  if (Option.isNone(stored) || stored.value.revoked) return Option.none()
  return constantTimeEquals(stored.value.hash, hash) ? Option.some({ account: stored.value.account, keyId }) : Option.none()
}

const verifyKey = (key: string) =>
  Effect.gen(function*() {
    const keyId = parseKeyId(key)
    // Hash even a malformed key, so a bad shape takes the same time as a wrong secret.
    const hash = yield* hashKey(key)
    if (keyId === undefined) return Option.none<Caller>()
    return verdict(keyId, hash, yield* (yield* AccountStore).findKey(keyId))
  })

/**
 * `verifyKey` without an effect, when the store knows the key's row without I/O
 * (`AccountStore.findKeyNow`); undefined when it does not (then `verifyKey` must run).
 */
const verifyKeyNow = (accounts: AccountStore["Type"], key: string): Option.Option<Caller> | undefined => {
  const keyId = parseKeyId(key)
  const hash = hashNow(key)
  if (keyId === undefined) return Option.none()
  const stored = accounts.findKeyNow(keyId)
  return stored === undefined ? undefined : verdict(keyId, hash, stored)
}

// The rules of both authentications, as plain functions: the effects below and the `...Now`
// functions (for a caller that runs without a fiber) both apply these, so they cannot drift.

/** Native and compat families: both headers are required; the key, trimmed, is what is verified. */
const headerKey = (email: string | undefined, key: string | undefined): Either.Either<string, Unauthorized> =>
  !email || !email.trim() || !key || !key.trim() ? Either.left(new Unauthorized({ reason: "missing", message: INVALID })) : Either.right(key.trim())

/** The key must belong to that email. The error never says which one was wrong. */
const headerVerdict = (email: string, caller: Option.Option<Caller>): Either.Either<Caller, Unauthorized> =>
  Option.isNone(caller) || caller.value.account.email !== email.trim().toLowerCase()
    ? Either.left(new Unauthorized({ reason: "invalid", message: INVALID }))
    : Either.right(caller.value)

/** Google-shaped family: a key is required. */
const queryKey = (key: string | undefined): Either.Either<string, Unauthorized> =>
  !key || !key.trim()
    ? Either.left(new Unauthorized({ reason: "missing", message: "The request is missing a valid API key." }))
    : Either.right(key.trim())

const keyVerdict = (caller: Option.Option<Caller>): Either.Either<Caller, Unauthorized> =>
  Option.isNone(caller)
    ? Either.left(new Unauthorized({ reason: "invalid", message: "API key not valid. Please pass a valid API key." }))
    : Either.right(caller.value)

/**
 * Header authentication of the native and compat families: both `X-User-Email` and `X-API-Key`
 * are required and the key must belong to that email. The error never says which one was wrong.
 */
export const authenticateCaller = (email: string | undefined, key: string | undefined) =>
  Effect.gen(function*() {
    const trimmed = yield* headerKey(email, key)
    return yield* headerVerdict(email!, yield* verifyKey(trimmed))
  }).pipe(Effect.withSpan("Auth.authenticate", { captureStackTrace: false }))

/**
 * `authenticateCaller` as a plain function, for a caller that must not start a fiber: the same
 * answer when the key's row is known without I/O, else undefined (run `authenticateCaller`).
 */
export const authenticateCallerNow = (
  accounts: AccountStore["Type"],
  email: string | undefined,
  key: string | undefined
): Either.Either<Caller, Unauthorized> | undefined => {
  const trimmed = headerKey(email, key)
  if (Either.isLeft(trimmed)) return Either.left(trimmed.left)
  const caller = verifyKeyNow(accounts, trimmed.right)
  return caller === undefined ? undefined : headerVerdict(email!, caller)
}

/** `authenticateCaller`'s account. */
export const authenticate = (email: string | undefined, key: string | undefined) =>
  Effect.map(authenticateCaller(email, key), (caller) => caller.account)

/** Key-only authentication of the Google-shaped family: the key alone names the account. */
export const authenticateKeyCaller = (key: string | undefined) =>
  Effect.gen(function*() {
    const trimmed = yield* queryKey(key)
    return yield* keyVerdict(yield* verifyKey(trimmed))
  }).pipe(Effect.withSpan("Auth.authenticateKey", { captureStackTrace: false }))

/** `authenticateKeyCaller` as a plain function (see `authenticateCallerNow`). */
export const authenticateKeyCallerNow = (accounts: AccountStore["Type"], key: string | undefined): Either.Either<Caller, Unauthorized> | undefined => {
  const trimmed = queryKey(key)
  if (Either.isLeft(trimmed)) return Either.left(trimmed.left)
  const caller = verifyKeyNow(accounts, trimmed.right)
  return caller === undefined ? undefined : keyVerdict(caller)
}
