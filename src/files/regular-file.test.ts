/**
 * The one file reader: a symbolic link (even to /dev/zero), a FIFO, a device
 * and a directory are refused naming the path, without blocking or reading;
 * the size limit holds while reading; a byte-order mark is dropped.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRefusal, readRegularFile, readRegularText } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-files-'));
const LIMIT = { bytes: 16, what: 'bytes in a test file' };

async function refusal(path: string): Promise<string> {
  try {
    await readRegularFile(path, LIMIT);
  } catch (err) {
    expect(err).toBeInstanceOf(FileRefusal);
    return (err as Error).message;
  }
  throw new Error(`${path} was read`);
}

describe('readRegularFile', () => {
  it('reads a regular file within its limit, and drops a BOM from text', async () => {
    writeFileSync(join(dir, 'ok.txt'), '\uFEFFhello');
    expect(await readRegularText(join(dir, 'ok.txt'), LIMIT)).toBe('hello');
    expect((await readRegularFile(join(dir, 'ok.txt'), LIMIT)).length).toBe(8);
  });

  it('refuses what is not a regular file, naming it', async () => {
    symlinkSync('/dev/zero', join(dir, 'zero'));
    writeFileSync(join(dir, 'target.txt'), 'x');
    symlinkSync(join(dir, 'target.txt'), join(dir, 'link.txt'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    mkdirSync(join(dir, 'sub'));
    expect(await refusal(join(dir, 'zero'))).toBe(`${join(dir, 'zero')} is a symbolic link; give the file itself`);
    expect(await refusal(join(dir, 'link.txt'))).toMatch(/link\.txt is a symbolic link/);
    expect(await refusal(join(dir, 'fifo'))).toMatch(/fifo is a FIFO \(named pipe\), not a regular file/);
    expect(await refusal('/dev/zero')).toBe('/dev/zero is a device, not a regular file');
    expect(await refusal(join(dir, 'sub'))).toMatch(/sub is a directory, not a file/);
    expect(await refusal(join(dir, 'missing'))).toMatch(/missing does not exist/);
  });

  it('refuses a file past its limit, naming the limit', async () => {
    writeFileSync(join(dir, 'big.txt'), 'x'.repeat(17));
    expect(await refusal(join(dir, 'big.txt'))).toBe(`${join(dir, 'big.txt')} is 17 bytes, above the limit of 16 bytes in a test file`);
    writeFileSync(join(dir, 'edge.txt'), 'x'.repeat(16));
    expect((await readRegularFile(join(dir, 'edge.txt'), LIMIT)).length).toBe(16);
  });
});
