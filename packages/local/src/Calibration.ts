/**
 * Calibration: the maps from a head's raw log-odds to a probability (Platt, isotonic, quantile)
 * that the model manifests store, and the fits that produce them. Public for the training
 * workspace (packages/training), which fits the maps the runtime applies.
 */
export { sigmoid, logit, applyCalibration, fitPlatt, fitPlatt2, fitIsotonic, fitQuantileMap } from "./internal/calibration.js"
export type { Calibration } from "./internal/calibration.js"
