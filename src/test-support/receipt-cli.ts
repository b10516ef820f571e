/**
 * `goodput receipt create` (in process) of two results held in memory, for the
 * tests that plant a lie in a run and read the refusal: each side is written as
 * JSON into the test's folder first, and a refusal is checked as the CLI owes
 * it (exit 2, nothing written) before its words are handed back.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { SweepResult } from '../core/index.js';
import { cli } from './cli-in-process.js';
import type { Ran } from './goodput-process.js';
import { measuredQualityFixture } from './quality-fixture.js';

export interface ReceiptCli {
  /** Writes `body` as JSON to `name` in the folder; returns its path. */
  write(name: string, body: unknown): string;
  /** receipt create of `baseline` against `optimized` (written as `<name>-b.json` and `<name>-o.json`) to `out`, with `more` flags. */
  create(name: string, baseline: unknown, optimized: unknown, out: string, more?: readonly string[]): Promise<Ran>;
  /** As create, into `never/` in the folder: the test fails unless it exits 2 and writes nothing there. Returns stderr. */
  refused(name: string, baseline: unknown, optimized: unknown): Promise<string>;
}

/** Receipts made in `dir` with `method` as the change's description. */
export function receiptCli(dir: string, method: string): ReceiptCli {
  const write = (name: string, body: unknown) => {
    const p = join(dir, name);
    writeFileSync(p, JSON.stringify(body));
    return p;
  };
  const create = (name: string, baseline: unknown, optimized: unknown, out: string, more: readonly string[] = []) =>
    cli([
      'receipt',
      'create',
      '--baseline',
      write(`${name}-b.json`, baseline),
      '--optimized',
      write(`${name}-o.json`, optimized),
      '--method',
      method,
      '--out',
      out,
      ...more,
    ]);
  return {
    write,
    create,
    async refused(name, baseline, optimized) {
      const r = await create(name, baseline, optimized, join(dir, 'never', `${name}.json`));
      expect(r.code, r.stderr).toBe(2);
      expect(() => readdirSync(join(dir, 'never'))).toThrow();
      return r.stderr;
    },
  };
}

/** A receipt of `pair` with the quality score measured between its servers, made in `dir` (files named after `name`) and written to `out`: the test fails on any word on stderr. */
export async function qualityReceipt(dir: string, name: string, pair: { baseline: SweepResult; optimized: SweepResult }, out: string): Promise<void> {
  const { write, create } = receiptCli(dir, 'FP8 dynamic quantization');
  const r = await create(name, pair.baseline, pair.optimized, out, ['--quality', write(`${name}-q.json`, measuredQualityFixture(pair))]);
  expect(r.stderr).toBe('');
}
