/**
 * The package as a registry would ship it: `npm pack` of this checkout (built
 * by npm test first), unpacked in a temporary folder with the dependencies
 * beside it, runs the demo from its own `bin/goodput.js`. A file the CLI needs
 * at run time but `files` leaves out fails here; tests and sources never ship.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { patient } from '../test-support/patience.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

describe('npm pack', () => {
  it(
    'ships bin, dist and examples only, and the unpacked package runs the demo',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'goodput-pack-'));
      const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
        cwd: ROOT,
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      const [info] = JSON.parse(packed.stdout) as Array<{ name: string; filename: string; files: Array<{ path: string }> }>;
      expect(info?.name).toBe('@goodput/cli');
      const paths = (info?.files ?? []).map((f) => f.path);
      expect(paths).toContain('bin/goodput.js');
      expect(paths).toContain('dist/cli/main.js');
      expect(paths.filter((p) => /^src\/|\.test\.|test-support/.test(p))).toEqual([]);
      await run('tar', ['-xzf', join(dir, info?.filename ?? ''), '-C', dir], { timeout: patient(60_000) });
      const pkg = join(dir, 'package');
      expect((JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin).toEqual({ goodput: 'bin/goodput.js' });
      // The dependencies an install would fetch, taken from this checkout (no network in tests).
      symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
      const home = join(dir, 'home');
      mkdirSync(home);
      const demo = await run(process.execPath, [join(pkg, 'bin/goodput.js'), 'demo'], {
        cwd: dir,
        timeout: 180_000,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, GOODPUT_HOME: home },
      });
      expect(demo.stdout).toMatch(/Concurrency +Throughput tok\/s/);
      expect(demo.stdout).toMatch(/^Engine +peak [\d.]+ tok\/s at concurrency \d+/m);
    },
    patient(240_000),
  );
});
