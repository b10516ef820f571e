// The text endpoints' table (core/text-endpoints.ts) is what the sweep does: each `works` cell names a test
// file that exists, and each refusal is the sweep spec's own words for that endpoint and feature.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEXT_ENDPOINT_ROWS, type TextFeature } from '../core/index.js';
import { sweepSpecSchema } from './sweep-spec.js';

const SRC = new URL('../', import.meta.url);
const base = { url: 'http://127.0.0.1:9', levels: [1], forceLength: false };
const tools = { label: 't', choice: 'auto', tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] };
/** The spec that asks for each feature. */
const ASKS: Partial<Record<TextFeature, object>> = {
  tools: { tools },
  schema: { responseSchema: { label: 's', name: 's', control: 0, schema: { type: 'object' } } },
  media: { images: { perRequest: 1, width: 8, height: 8 } },
  sessions: { prompts: { kind: 'sessions', sessions: [{ turns: [{ p: 4, o: 4 }], thinkMs: [] }] }, warmup: 0 },
  azure: { azure: { deployment: 'd', apiVersion: 'v' } },
  extras: { headers: [{ name: 'X-Tenant', value: 'a' }], extraBody: { priority: 1 } },
};

describe('the text endpoints table', () => {
  for (const [endpoint, row] of Object.entries(TEXT_ENDPOINT_ROWS)) {
    for (const [feature, cell] of Object.entries(row)) {
      if (typeof cell === 'string') continue;
      const ask = ASKS[feature as TextFeature] as object;
      it(`${endpoint}, ${feature}: ${'works' in cell ? 'works' : 'refused'}`, () => {
        const parsed = sweepSpecSchema.safeParse({ ...base, endpoint, ...ask });
        if ('works' in cell) {
          expect(existsSync(new URL(cell.works, SRC)), cell.works).toBe(true);
          expect(parsed.error?.issues).toBeUndefined();
        } else {
          expect(parsed.error?.issues.map((i) => i.message)).toContain(cell.refused);
        }
      });
    }
  }
});
