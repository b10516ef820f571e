// A result of goodput run carries its request records (the evidence): runs import and export of the
// record formats take them as they would a --raw file, and still refuse a result that carries none.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../test-support/cli-in-process.js';
import { evidenceResult } from '../test-support/evidence-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-embedded-records-'));
const result = evidenceResult({
  levels: [
    { c: 1, ttftMs: 40, tpotMs: 10 },
    { c: 2, ttftMs: 45, tpotMs: 11 },
  ],
});
const withRecords = join(dir, 'run.json');
writeFileSync(withRecords, JSON.stringify(result));
const { records, recordsSha256: _, ...bare } = result;
const without = join(dir, 'bare.json');
writeFileSync(without, JSON.stringify(bare));

describe('results that carry their records', () => {
  it('export --format csv writes one row per record without --raw; a result without records still needs --raw', async () => {
    const csv = await cli(['export', withRecords, '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.trim().split('\n')).toHaveLength(1 + (records?.length ?? 0));
    const refused = await cli(['export', without, '--format', 'csv']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /--raw: --format csv exports every request record: give the JSONL file the run wrote with --raw \(this result carries none of its own\)/,
    );
  });

  it('runs import stores it without --raw; a result without records is refused naming --raw, nothing stored', async () => {
    const data = join(dir, 'db');
    const ok = await cli(['runs', 'import', withRecords, '--data', data]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe('stored as run 1\n');
    const shown = await cli(['runs', 'show', '1', '--json', '--data', data]);
    expect((JSON.parse(shown.stdout) as { levels: unknown[] }).levels).toHaveLength(2);
    const refused = await cli(['runs', 'import', without, '--data', data]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--raw: .*bare\.json carries no records of its own: give the JSONL file the same sweep wrote with --raw/);
    const list = await cli(['runs', 'list', '--json', '--data', data]);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });
});
