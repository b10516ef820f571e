// Tools as a workload reads them: the built-in sets compile and keep their sizes; a file as a list or as
// { tools }; every bad input refused naming the file, the tool and the problem.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS, compileTools } from '../core/index.js';
import { builtinTools } from './builtin-tools.js';
import { loadTools } from './tools-file.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-tools-file-'));
const file = (name: string, data: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof data === 'string' ? data : JSON.stringify(data));
  return p;
};

describe('built-in tool sets', () => {
  it('1, 8 and 64 tools with unique names and schemas that compile, 0.6 k / 7 k / 56 k characters of JSON', async () => {
    for (const [n, chars] of [
      [1, 555],
      [8, 6865],
      [64, 55873],
    ] as const) {
      const t = await loadTools(String(n), 'required');
      expect(t.tools).toHaveLength(n);
      expect(new Set(t.tools.map((x) => x.function.name)).size).toBe(n);
      expect(JSON.stringify(t.tools).length).toBe(chars);
      expect(compileTools(t.tools).ok).toBe(true);
    }
    expect(builtinTools(8).slice(0, 1)).toEqual(builtinTools(1));
  });
});

describe('a tools file', () => {
  const one = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } } };
  it('reads a list or { tools }, labelled by the file name', async () => {
    expect((await loadTools(file('list.json', [one]), 'auto')).label).toBe('list.json');
    const t = await loadTools(file('wrapped.json', { tools: [one] }), { name: 'lookup' });
    expect(t).toMatchObject({ label: 'wrapped.json', choice: { name: 'lookup' } });
  });

  it('refuses each bad input naming what is wrong', async () => {
    const cases: Array<[unknown, RegExp]> = [
      ['{not json', /not JSON/],
      [{ other: [] }, /expected a JSON list of tools or \{ "tools": \[\.\.\.\] \}/],
      [[], /give at least one tool/],
      [[{ ...one, function: { ...one.function, parameters: { type: 'objekt' } } }], /tool lookup: parameters is not a valid JSON schema/],
      [[{ ...one, function: { ...one.function, parameters: { type: 'object', required: 'q' } } }], /tool lookup: parameters is not a valid JSON schema/],
      [[one, one], /tool lookup is defined twice/],
      [[{ type: 'function', function: { name: 'bad name!' } }], /name must be 1-64 letters/],
      [[{ type: 'retrieval', function: { name: 'x' } }], /type must be "function"/],
      [
        [{ ...one, function: { ...one.function, description: 'x'.repeat(LIMITS.toolDefinitionBytes.max) } }],
        /tool lookup: \d+ is above the limit of 65536 bytes of one tool definition/,
      ],
      [
        Array.from({ length: LIMITS.tools.max + 1 }, (_, i) => ({ type: 'function', function: { name: `t${i}` } })),
        /tools 129 is above the limit of 128 tools offered with one request/,
      ],
    ];
    for (const [i, [data, message]] of cases.entries()) {
      await expect(loadTools(file(`bad-${i}.json`, data), 'auto')).rejects.toThrow(message);
    }
    await expect(loadTools(file('named.json', [one]), { name: 'other' })).rejects.toThrow(/no tool is named other/);
    await expect(loadTools(join(dir, 'absent.json'), 'auto')).rejects.toThrow(/absent\.json: cannot read \(ENOENT\); give a JSON file or one of 1, 8, 64/);
  });
});
