/** Output files: whole or not at all, and no temporary file left behind on failure. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFilesInto } from './export-level.js';
import { writeFileAtomic, writeFilesAtomic } from './files.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fresh = (name: string) => {
  const d = join(root, name);
  mkdirSync(d);
  return d;
};

describe('writeFileAtomic', () => {
  it('writes the file whole and leaves nothing else', async () => {
    const d = fresh('ok');
    await writeFileAtomic(join(d, 'a.json'), 'hello\n');
    expect(readFileSync(join(d, 'a.json'), 'utf8')).toBe('hello\n');
    expect(readdirSync(d)).toEqual(['a.json']);
  });
  it('a path that is a directory: a clear error, and its temporary file is removed', async () => {
    const d = fresh('isdir');
    mkdirSync(join(d, 'out.json'));
    await expect(writeFileAtomic(join(d, 'out.json'), 'x')).rejects.toMatchObject({
      exitCode: 2,
      message: `${join(d, 'out.json')} is a directory; give a file path`,
    });
    expect(readdirSync(d)).toEqual(['out.json']);
  });
});

describe('writeFilesAtomic / writeFilesInto (--out-dir)', () => {
  it('writes nothing when one target cannot be written', async () => {
    const d = fresh('set');
    mkdirSync(join(d, 'b.json'));
    await expect(
      writeFilesAtomic([
        { path: join(d, 'a.json'), text: 'a' },
        { path: join(d, 'b.json'), text: 'b' },
      ]),
    ).rejects.toThrow(/b\.json is a directory/);
    expect(readdirSync(d)).toEqual(['b.json']);
  });
  it('leaves no file when a temporary cannot be written, and keeps what was there', async () => {
    const d = fresh('blocked');
    writeFileSync(join(d, 'a.json'), 'old');
    // "sub" is a file, so nothing can be created under it.
    writeFileSync(join(d, 'sub'), '');
    await expect(
      writeFilesAtomic([
        { path: join(d, 'a.json'), text: 'new' },
        { path: join(d, 'sub', 'b.json'), text: 'b' },
      ]),
    ).rejects.toThrow();
    expect(readdirSync(d).sort()).toEqual(['a.json', 'sub']);
    expect(readFileSync(join(d, 'a.json'), 'utf8')).toBe('old');
  });
  it('--out-dir: all files or none', async () => {
    const d = fresh('outdir');
    const out = join(d, 'levels');
    expect(
      await writeFilesInto(out, [
        { name: 'c1.json', text: '1' },
        { name: 'c2.json', text: '2' },
      ]),
    ).toEqual([join(out, 'c1.json'), join(out, 'c2.json')]);
    expect(readdirSync(out).sort()).toEqual(['c1.json', 'c2.json']);
    const bad = join(d, 'bad');
    mkdirSync(join(bad, 'c2.json'), { recursive: true });
    await expect(
      writeFilesInto(bad, [
        { name: 'c1.json', text: '1' },
        { name: 'c2.json', text: '2' },
      ]),
    ).rejects.toThrow(/c2\.json is a directory/);
    expect(existsSync(join(bad, 'c1.json'))).toBe(false);
    expect(readdirSync(bad)).toEqual(['c2.json']);
  });
});
