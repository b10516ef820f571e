/**
 * quality/: the quality score over the network (issue 6, part 1). A candidate
 * configuration is scored against a baseline on a fixed, hashed prompt set by
 * first-token KL and reference-text perplexity; the math is core's. This file is
 * the folder's only door.
 */
export { scoreQuality, type QualityConfiguration, type QualityOptions, type QualityRun } from './score-quality.js';
export { QualityError, type QualityErrorCode } from './quality-error.js';
export { TOP_K_LADDER, type QualityEndpoint } from './first-token.js';
export { PROMPT_SET_ID, PROMPT_SET_SHA256, QUALITY_PROMPTS, REFERENCE_TEXT, REFERENCE_TEXT_SHA256, promptSetHash, referenceTextHash } from './prompt-set.js';
