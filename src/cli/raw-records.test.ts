// The --raw reader bounds each line while reading: an oversized line is refused by its number before it is held or parsed.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../core/index.js';
import { readRawRecords } from './export-command.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-raw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('readRawRecords', () => {
  it('refuses a line past the per-line limit by its number, never parsing it', async () => {
    const path = join(dir, 'huge-line.jsonl');
    const huge = `{"pad":"${'x'.repeat(LIMITS.recordLineBytes.max + 10)}"}`;
    writeFileSync(path, `\n\n${huge}\n`);
    const parse = vi.spyOn(JSON, 'parse');
    await expect(readRawRecords(path)).rejects.toThrow(
      `huge-line.jsonl:3 is a line of more than ${LIMITS.recordLineBytes.max} bytes, above the limit of ${LIMITS.recordLineBytes.max} ${LIMITS.recordLineBytes.what}`,
    );
    expect(parse.mock.calls.filter(([text]) => text.length > LIMITS.recordLineBytes.max)).toEqual([]);
  });

  it("still names a line that is not JSON, across the reader's chunk boundaries and CRLF endings", async () => {
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, `\uFEFF${'\r\n'.repeat(700_000)}not json\r\n`);
    await expect(readRawRecords(path)).rejects.toThrow('bad.jsonl:700001: not JSON');
  });
});
