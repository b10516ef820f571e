/**
 * What adding a kind costs outside its own module, kept honest: the source
 * files outside speech to text's module that name it are exactly the list
 * docs/architecture.md gives (its "new-kind-files" block), so a surface that
 * starts telling kinds apart by name, instead of through the tables, fails
 * here until the list (and the count the design aims at) says so.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Source files under src/ (no tests, no test helpers). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return d.name === 'test-support' ? [] : sources(path);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [relative(ROOT, path)] : [];
  });
}

/** A file's code without its comments: a comment naming the kind as an example is no place a new kind must edit. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The files outside speech to text's module (files named for it) whose code names it. */
const naming = sources(join(ROOT, 'src'))
  .filter((f) => !f.includes('/transcription'))
  .filter((f) => /transcri/i.test(code(readFileSync(join(ROOT, f), 'utf8'))))
  .sort();

const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const block = doc.slice(doc.indexOf('<!-- new-kind-files:begin -->'), doc.indexOf('<!-- new-kind-files:end -->'));
const listed = [...block.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1] as string).sort();

describe('a new kind outside its module', () => {
  it("touches exactly the files docs/architecture.md lists (speech to text's)", () => {
    expect(listed.length).toBeGreaterThan(0);
    expect(naming).toEqual(listed);
  });

  it('touches at most eight of them', () => {
    expect(naming.length).toBeLessThanOrEqual(8);
  });
});
