/**
 * The one string hashing of Decorum's hashed features: FNV-1a (32 bits, optionally seeded) and
 * murmur3's finaliser. Every featuriser hashes through these functions (the local model set's, the
 * fallacy detector's, the toxic-span tagger's, the dog-whistle and machine-text detectors', and
 * the site adapters' word features), so a hash is computed one way everywhere.
 *
 * Part of every shipped model's definition: the weights were trained on these exact values, so
 * nothing here may change what a function returns (the golden tests of `@decorum/local` pin the
 * scores; `test/Hashing.test.ts` the functions).
 *
 * States are unsigned 32-bit integers. Every function is pure.
 */

/** FNV-1a's 32-bit offset basis. */
export const FNV_OFFSET_BASIS = 0x811c9dc5

/** FNV-1a's 32-bit prime. */
export const FNV_PRIME = 0x01000193

/** FNV-1a's starting state for `seed` (the offset basis xor the seed; 0: plain FNV-1a). */
export const fnvBasis = (seed: number): number => (FNV_OFFSET_BASIS ^ seed) >>> 0

/** FNV-1a's state after one more unit (a UTF-16 code unit, or any 32-bit value folded in). */
export const fnvStep = (h: number, unit: number): number => Math.imul(h ^ unit, FNV_PRIME) >>> 0

/** FNV-1a's state after the UTF-16 code units of `s`, from state `h` (not finalised). */
export const fnvString = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME)
  return h >>> 0
}

/** Plain 32-bit FNV-1a of `s`, not finalised (the site adapters' word features). */
export const fnv1a = (s: string): number => fnvString(FNV_OFFSET_BASIS, s)

/** murmur3's 32-bit finaliser: mixes every input bit into every output bit. */
export const fmix = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** The first half of murmur3's finaliser, one multiply (the fallacy detector's features were trained with it). */
export const fmixHalf = (h: number): number => {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  return h >>> 0
}

/** FNV-1a of `s` from `seed`'s basis, finalised with `fmix`. */
export const hashString = (s: string, seed: number): number => fmix(fnvString(fnvBasis(seed), s))
