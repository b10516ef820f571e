/**
 * The commands the docs show, run: every fenced block whose info string is
 * `sh runnable` in README.md and docs/*.md is executed by bash in a temporary
 * folder, with `goodput` meaning this checkout's CLI, `examples/` this
 * checkout's examples, and the servers the docs name (127.0.0.1:8000 and, for
 * a second configuration, 127.0.0.1:8001) being simulators on free ports. A command that
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
let second: SimProcess;
beforeAll(async () => {
  [sim, second] = await Promise.all([
    spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '2', '--decode-ms-per-extra-seq', '0']),
    spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0', '--quantization-noise', '0.1']),
  ]);
});
afterAll(async () => { await Promise.all([sim?.stop(), second?.stop()]); });

describe('runnable commands in the docs', () => {
  it('there is at least one (the README\'s first sweep)', () => {
    expect(blocks.find((b) => b.at.startsWith('README.md:'))?.script).toMatch(/^goodput sweep --url http:\/\/127\.0\.0\.1:8000 /);
  });
  for (const block of blocks) {
    it(`${block.at} runs and exits 0`, async () => {
      const cwd = mkdtempSync(join(tmpdir(), 'goodput-docs-'));
      const script = block.script
        // Contract files name their servers: a run of one is pointed at the simulator standing in for it.
        .replace(/(goodput run \S*optimized\.yaml)/g, '$1 --url http://127.0.0.1:8001')
        .replace(/(goodput run \S*(?:baseline|goodput)\.yaml)/g, '$1 --url http://127.0.0.1:8000')
        // A command word, not a file name (goodput.yaml) or a path.
        .replace(/(?<![\w/.-])goodput(?= )/g, `node ${JSON.stringify(join(ROOT, 'bin/goodput.js'))}`)
        .replace(/(?<![\w/.-])examples\//g, `${join(ROOT, 'examples')}/`)
        .replaceAll('http://127.0.0.1:8000', sim.url)
        .replaceAll('http://127.0.0.1:8001', second.url);
      const run = promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], { cwd, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });
      await expect(run).resolves.toBeDefined();
    }, 300_000);
  }
});
