/**
 * The pooling kind of receipt (embeddings, rerank): read through the pooling
 * result's schema, checked by recomputing every level, the peak and the
 * capacity from its records (pooling-evidence.ts), repeats combined as
 * `goodput run` combines them, and no quality score: nothing is generated.
 */
import type { z } from 'zod';
import { combinePoolingRuns } from '../contract/index.js';
import { POOLING_ENDPOINTS, type PoolingResult, poolingResultSchema } from '../core/index.js';
import { publicPoolingResult } from './evidence-files.js';
import { checkPoolingEvidence } from './pooling-evidence.js';
import { poolingReceipt } from './pooling-receipt.js';
import type { ReceiptKind } from './receipt-kind.js';
import { refusal } from './refusal.js';

export const poolingKind: ReceiptKind<PoolingResult> = {
  endpoints: POOLING_ENDPOINTS,
  schema: poolingResultSchema as z.ZodType<PoolingResult>,
  publicCopy: publicPoolingResult,
  checkEvidence: (side, result, out) => checkPoolingEvidence(side, result, out),
  combineRuns: combinePoolingRuns,
  evidenceQuality: (standalone, _optimized, results) =>
    standalone === null
      ? { ok: true, score: null }
      : {
          ok: false,
          refusals: [
            refusal(
              'quality-belongs',
              'evidence.quality',
              `an ${results.baseline.run.endpoint} receipt carries no quality score: nothing is generated to score`,
            ),
          ],
        },
  build: poolingReceipt,
};
