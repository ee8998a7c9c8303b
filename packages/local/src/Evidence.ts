/**
 * High-precision pattern evidence for THREAT and IDENTITY_ATTACK, which the trained heads read
 * as one more feature (its weight is learnt in training).
 */
export { threatEvidence, identityEvidence } from "./internal/model/evidence.js"
export type { EvidenceKind } from "./internal/model/evidence.js"
