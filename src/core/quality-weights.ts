/** The quality composite's weights (core/quality-score.ts): apart, so the score and its noise both read them. */

/** Weight of exp(−KL) in the composite. */
export const KL_WEIGHT = 0.7;
/** Weight of min(1, PPL_baseline / PPL_candidate) in the composite. */
export const PPL_WEIGHT = 0.3;
