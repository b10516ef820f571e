/**
 * The commands the docs show, run. First the newcomer's path, in one home and
 * one folder, as a reader follows it: the README's first command (`npm start`;
 * the `npm install` before it is what built this checkout), `goodput` put on
 * PATH the README's way (`npm link` into the home's ~/.local, offline), the page
 * opened in Chromium through `goodput serve`, then every `sh runnable` block of
 * the README (a sweep of a second server) and of docs/receipts.md (contract
 * runs, a quality score, a receipt, publish, verify), in order, with that
 * `goodput`. Then every other runnable block of docs/*.md on its own.
 * The servers the docs name (127.0.0.1:8000 and, for a second configuration,
 * 127.0.0.1:8001) are simulators on free ports; serve's 7878 is a free port.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { startCommand } from '../test-support/goodput-process.js';
import { launchChromium } from '../test-support/chromium.js';
import { patient } from '../test-support/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** The files whose runnable blocks make the newcomer's path, in reading order. */
const PATH_DOCS = ['README.md', 'docs/receipts.md'];
const run = promisify(execFile);

/** The fenced blocks of a Markdown file whose info string is `info`, with the line each starts on. */
function fencedBlocks(file: string, info: string): Array<{ at: string; script: string }> {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const out: Array<{ at: string; script: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]?.trim() !== '```' + info) continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === '```');
    if (end < 0) throw new Error(`${file}:${i + 1}: a fenced block is never closed`);
    out.push({ at: `${file}:${i + 1}`, script: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return out;
}

const blocks = DOCS.flatMap((f) => fencedBlocks(f, 'sh runnable'));
let sim: SimProcess;
let second: SimProcess;
beforeAll(async () => {
  [sim, second] = await Promise.all([
    spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '2', '--decode-ms-per-extra-seq', '0']),
    spawnSimProcess(['--prefill-base-ms', '2', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0', '--quantization-noise', '0.1']),
  ]);
});
afterAll(async () => {
  await Promise.all([sim?.stop(), second?.stop()]);
});

/** A docs script as bash runs it here: `goodput` is `goodputCmd`, examples/ this checkout's, the docs' servers the simulators. */
function localScript(script: string, goodputCmd: string): string {
  return (
    script
      // Contract files name their servers: a run of one is pointed at the simulator standing in for it.
      .replace(/(goodput run \S*optimized\.yaml)/g, '$1 --url http://127.0.0.1:8001')
      .replace(/(goodput run \S*(?:baseline|goodput)\.yaml)/g, '$1 --url http://127.0.0.1:8000')
      // A command word, not a file name (goodput.yaml) or a path.
      .replace(/(?<![\w/.-])goodput(?= )/g, goodputCmd)
      .replace(/(?<![\w/.-])examples\//g, `${join(ROOT, 'examples')}/`)
      .replaceAll('http://127.0.0.1:8000', sim.url)
      .replaceAll('http://127.0.0.1:8001', second.url)
  );
}

const bash = (script: string, cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  run('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, timeout: 240_000, maxBuffer: 64 * 1024 * 1024 });

describe("the newcomer's path", () => {
  it(
    'README first screen → goodput on PATH → the page → a second server → contract runs → a receipt → publish → verify',
    async () => {
      const top = mkdtempSync(join(tmpdir(), 'goodput-newcomer-'));
      const home = join(top, 'home');
      const work = join(top, 'work');
      for (const d of [home, work]) mkdirSync(d);
      // A newcomer's environment: their own home (the store goes to ~/.goodput, goodput to ~/.local/bin), nothing of ours set.
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, PATH: `${join(home, '.local', 'bin')}:${process.env['PATH'] ?? ''}` };
      for (const k of ['GOODPUT_HOME', 'GOODPUT_DATA', 'GOODPUT_DATABASE_URL', 'GOODPUT_TOKEN']) delete env[k];

      const [first] = fencedBlocks('README.md', 'sh');
      const commands = (first?.script ?? '').split('\n').map((l) => l.replace(/#.*/, '').trim());
      expect(commands).toEqual(['npm install && npm start', 'npm test']);
      const demo = await bash('npm start', ROOT, env);
      expect(demo.stdout).toMatch(/Concurrency +Throughput tok\/s/);
      expect(demo.stderr).toMatch(/stored as run 1 \(complete\) in embedded database at .*\/home\/\.goodput\/db; see it with: goodput serve/);

      // The README's install line, word for word: it links into the home's ~/.local, never the global prefix (offline: nothing is fetched).
      const install = /`(npm_config_prefix=\$HOME\/\.local npm link[^`]*)`/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1];
      expect(install).toBe('npm_config_prefix=$HOME/.local npm link --ignore-scripts');
      await bash(install as string, ROOT, { ...env, npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });
      const version = await run('goodput', ['--version'], { cwd: work, env });
      expect(version.stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);

      // The page, with the demo's run; it stays open while the README's sweep stores its run through it.
      const serve = startCommand('goodput', ['serve', '--port', '0'], { cwd: work, env });
      try {
        const url = (await serve.waitFor(/goodput serve: (http:\/\/127\.0\.0\.1:\d+\/)/))[1] as string;
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          await page.goto(`${url}#/runs/1`);
          await page.getByRole('heading', { name: /^Run 1 complete$/ }).waitFor({ timeout: patient(30_000) });
          expect(
            await page
              .getByRole('table', { name: /Per concurrency level/ })
              .getByRole('rowheader')
              .allTextContents(),
          ).toEqual(['1', '2', '4', '8', '16']);

          for (const file of PATH_DOCS) {
            for (const block of fencedBlocks(file, 'sh runnable')) {
              await expect(bash(localScript(block.script, 'goodput'), work, env), block.at).resolves.toBeDefined();
            }
          }
          await page.goto(`${url}#/runs/2`);
          await page.getByRole('heading', { name: /^Run 2 complete$/ }).waitFor({ timeout: patient(30_000) });
        } finally {
          await browser.close();
        }
      } finally {
        expect(await serve.stop()).toBe(0);
      }
      expect(JSON.parse(readFileSync(join(work, 'site', 'dataset.json'), 'utf8'))).toHaveProperty('receipts');
    },
    patient(600_000),
  );
});

describe('other runnable commands in the docs', () => {
  it("the README's first runnable block is its sweep", () => {
    expect(blocks.find((b) => b.at.startsWith('README.md:'))?.script).toMatch(/^goodput sweep --url http:\/\/127\.0\.0\.1:8000 /);
  });
  for (const block of blocks.filter((b) => !PATH_DOCS.some((f) => b.at.startsWith(`${f}:`)))) {
    it(
      `${block.at} runs and exits 0`,
      async () => {
        const cwd = mkdtempSync(join(tmpdir(), 'goodput-docs-'));
        await expect(bash(localScript(block.script, `node ${JSON.stringify(join(ROOT, 'bin/goodput.js'))}`), cwd)).resolves.toBeDefined();
      },
      patient(300_000),
    );
  }
});
