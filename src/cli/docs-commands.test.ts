/**
 * The commands the docs show, run: every fenced block whose info string is
 * `sh runnable` in README.md and docs/*.md is executed by bash in a temporary
 * folder, with `npx goodput` meaning this checkout's CLI and the server the
 * docs name (127.0.0.1:8000) being the simulator on a free port. A command that
 * stops working fails here before a reader finds out.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The runnable blocks of a Markdown file, with the line each starts on. */
function runnableBlocks(file: string): Array<{ at: string; script: string }> {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Array<{ at: string; script: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```sh runnable') continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    if (end < 0) throw new Error(`${file}:${i + 1}: a runnable block is never closed`);
    out.push({ at: `${file}:${i + 1}`, script: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return out;
}

const blocks = DOCS.flatMap(runnableBlocks);
let sim: SimProcess;
beforeAll(async () => { sim = await spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0']); });
afterAll(async () => { await sim?.stop(); });

describe('runnable commands in the docs', () => {
  it('there is at least one (the README\'s first sweep)', () => {
    expect(blocks.map((b) => b.at)).toContain('README.md:24');
  });
  for (const block of blocks) {
    it(`${block.at} runs and exits 0`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'goodput-docs-'));
      const script = block.script
        .replaceAll('npx goodput', `node ${JSON.stringify(join(ROOT, 'bin/goodput.js'))}`)
        .replaceAll('http://127.0.0.1:8000', sim.url);
      const run = promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });
      await expect(run).resolves.toBeDefined();
    }, 300_000);
  }
});
