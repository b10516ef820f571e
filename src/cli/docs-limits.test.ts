/** The limits table in the docs is the one in core: a changed limit fails here until the docs say it. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';

const doc = readFileSync(new URL('../../docs/limits-and-security.md', import.meta.url), 'utf8');

describe('docs/limits-and-security.md', () => {
  it('lists every limit with its value, and no other', () => {
    const rows = [...doc.matchAll(/^\| `(\w+)` \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, v.max])));
  });
});
