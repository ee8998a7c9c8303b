/**
 * The native `overall_score`: a 1-5 quality grade from the comment scorer's signals. A linear
 * score around a neutral comment, then caps for comments no weighing can redeem, then rounding.
 *
 * Every number is in `QualityWeights`; `qualityScore` is the only place they are combined. The
 * directions are the contract (`test/evaluators/Quality.test.ts`): a more constructive comment
 * (P(CONSTRUCTIVE), and the reasons and evidence it gives, counted from phrases) scores higher;
 * toxicity past a tolerance, quoted objectionable phrases, low effort and fallacies lower it; a
 * threat or identity attack caps it at 1, a clearly toxic comment at 2.
 */

/** What the score is computed from: model probabilities in [0, 1] and the scorer's findings. */
export interface QualitySignals {
  /** P(CONSTRUCTIVE): reasons, evidence, a proposal (the C3 head). */
  readonly constructive: number
  readonly toxicity: number
  readonly threat: number
  readonly identityAttack: number
  /** P(LOW_EFFORT). */
  readonly lowEffort: number
  /** The scorer's verdict (a low-effort form, a copy of the parent, or P >= 0.5). */
  readonly appearsLowEffort: boolean
  /** Fallacies the scorer quoted. */
  readonly fallacies: number
  /** Objectionable phrases the scorer quoted (insults, threats, slurs, profanity). */
  readonly objectionable: number
  /** Distinct reason and evidence phrases in the comment ("because", "according to", "the data"). */
  readonly reasons: number
}

export const QualityWeights = {
  /** The raw score of a comment with neutral signals (constructive at its neutral point, nothing else). */
  base: 3.2,
  constructive: {
    /** Raw points per unit of P(CONSTRUCTIVE) above (or below) the neutral point. */
    weight: 2.5,
    /** P(CONSTRUCTIVE) that neither raises nor lowers the score; also the value when the model set has no such head. */
    neutral: 0.4
  },
  toxicity: {
    /** Raw points lost per unit of toxicity above the tolerance. */
    weight: 4,
    /**
     * Toxicity that costs nothing (blunt but civil wording). 0.2 with local-2026.11.3's heads; 0.5
     * with local-2026.12.7's, whose TOXICITY reads higher on civil news comments (median 0.205
     * against 0.146 on C3's calibration articles): the smallest tolerance (steps of 0.05) at which
     * the grade ranks the constructive comments of C3's calibration articles (dev, hash % 10 === 8)
     * at least as well as 11.3 did (ROC AUC 0.9349 against 11.3's 0.9344; 0.2 gives 0.9085).
     * `node packages/training/run.mjs qualitydev --grade-only --tolerance 0.2,0.4,0.45,0.5
     * --weight 4 --toxicat 0.7 --objectionable 0.6` (11.3: the same with `--models DIR`).
     */
    tolerance: 0.5
  },
  lowEffort: {
    /** Raw points lost per unit of P(LOW_EFFORT). */
    weight: 1.6,
    /** P(LOW_EFFORT) counted at least this much when the scorer judged the comment low effort. */
    whenJudged: 0.8
  },
  objectionable: {
    /**
     * Raw points lost per quoted objectionable phrase, for at most `counted`: an insult costs
     * points even when a long comment dilutes its toxicity below the tolerance.
     */
    weight: 0.6,
    counted: 3
  },
  reasons: {
    /**
     * Raw points per distinct reason or evidence phrase, for at most `counted`. The C3-trained
     * CONSTRUCTIVE head of local-2026.11.3 does not rise when a comment adds reasons (it often
     * falls), so the grade counts them itself.
     */
    weight: 0.5,
    counted: 3
  },
  fallacies: {
    /** Raw points lost per quoted fallacy... */
    weight: 0.3,
    /** ...for at most this many. */
    counted: 2,
    /**
     * With the trained detector, fallacies count only when the detector's probability for the
     * comment reaches this: its reporting threshold is chosen for F1 on a corpus where most
     * comments are fallacious, and counting its reports lowered the grade's ranking of
     * constructive comments on C3's held-out articles (ROC AUC 0.9352 with the patterns; counting
     * detector reports from probability 0.5: 0.9338, 0.8: 0.9349, 0.9: 0.9351, 0.95: 0.9352).
     */
    detectorAt: 0.95
  },
  caps: {
    /** A threat or identity attack at or above this probability caps the score at `severe`. */
    severeAt: 0.7,
    severe: 1,
    /** Toxicity at or above this caps the score at `toxic`. */
    toxicAt: 0.7,
    toxic: 2
  }
} as const

/** The unrounded score (before the 1-5 clamp) and the grade. */
export const qualityScore = (s: QualitySignals): { readonly raw: number; readonly overall: number } => {
  const w = QualityWeights
  const lowEffort = s.appearsLowEffort ? Math.max(s.lowEffort, w.lowEffort.whenJudged) : s.lowEffort
  let raw =
    w.base +
    w.constructive.weight * (s.constructive - w.constructive.neutral) -
    w.toxicity.weight * Math.max(0, s.toxicity - w.toxicity.tolerance) -
    w.lowEffort.weight * lowEffort +
    w.reasons.weight * Math.min(w.reasons.counted, s.reasons) -
    w.objectionable.weight * Math.min(w.objectionable.counted, s.objectionable) -
    w.fallacies.weight * Math.min(w.fallacies.counted, s.fallacies)
  if (s.threat >= w.caps.severeAt || s.identityAttack >= w.caps.severeAt) raw = Math.min(raw, w.caps.severe)
  if (s.toxicity >= w.caps.toxicAt) raw = Math.min(raw, w.caps.toxic)
  return { raw, overall: Math.min(5, Math.max(1, Math.round(raw))) }
}
