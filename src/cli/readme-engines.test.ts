/** The README's engine commands start each engine with what goodput reads from it (llama.cpp's /metrics needs --metrics). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');

describe('README engine commands', () => {
  it('every llama-server command serves /metrics', () => {
    const commands = readme.split('\n').filter((l) => /^\s*llama-server\b/.test(l));
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect(c).toMatch(/\s--metrics(\s|$)/);
  });
});
