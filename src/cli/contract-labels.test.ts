/**
 * A contract's labels are held to the receipt's wording rules when it is
 * loaded, before anything is measured: a hardware label "CPU 2 cores" or a
 * quantization "Q8 zero" is refused by run, capacity and rerun with the same
 * refusal `receipt create` would give, and the server hears nothing.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { contractLabelRefusals } from '../publish/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { EXIT } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-labels-'));
let server: TestServer;
beforeAll(async () => {
  server = await startServer((_req, res) => {
    res.writeHead(500);
    res.end();
  });
});
afterAll(async () => {
  await server.close();
});

const contract = (label: string, quantization: string) => ({
  version: 1,
  server: { url: server.url },
  model: { name: 'stories260K', revision: 'r1', tokenizer: { kind: 'server' as const }, precision: 'f32', quantization },
  workload: { prompts: { kind: 'synthetic', tokens: 16 }, outputTokens: 8, requestsPerLevel: 2, warmup: 0 },
  load: { levels: [1] },
  slo: { ttftMs: { p: 95, max: 2000 } },
  hardware: { label },
});

describe('receipt wording rules when a contract is loaded', () => {
  it('run and capacity refuse "CPU 2 cores" and "Q8 zero" before sending anything, with the receipt\'s own refusals', async () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, stringify(contract('CPU 2 cores', 'Q8 zero')));
    const expected = contractLabelRefusals('', contract('CPU 2 cores', 'Q8 zero'));
    expect(expected.map((r) => r.field)).toEqual(['model.quantization', 'hardware.label']);
    const json = join(dir, 'bad.json');
    for (const args of [
      ['run', path, '--json', json, '--no-save'],
      ['capacity', path, '--json', json],
    ]) {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(EXIT.usage);
      expect(r.stderr).toContain(`goodput: ${path}: labels a receipt of these runs would refuse, so nothing was measured; write them as names:\n`);
      for (const x of expected) expect(r.stderr).toContain(`  ${x.message}\n`);
      expect(r.stderr).toMatch(/hardware\.label: "2" is not a name token .*\[rule: allow-list\]/);
      expect(r.stderr).toMatch(/model\.quantization: "zero" is a number or unit in words \[rule: allow-list\]/);
    }
    expect(server.requests).toEqual([]);
    expect(existsSync(json)).toBe(false);
  });

  it('labels that are names pass: "CPU", "SimGPU 80GB", "8× H100", q8_0', () => {
    for (const [label, q] of [
      ['CPU', 'q8_0'],
      ['SimGPU 80GB', 'none'],
      ['8× H100 SXM', 'fp8'],
    ] as const)
      expect(contractLabelRefusals('', contract(label, q))).toEqual([]);
    expect(contractLabelRefusals('', contract('gpu-node-7.internal', 'none')).map((r) => r.rule)).toContain('no-internal-identifiers');
  });
});
