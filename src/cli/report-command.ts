/**
 * `goodput report RUN… --out report.html`: one to eight runs (stored ids or
 * result files) as a single self-contained HTML file — the page's markup and
 * stylesheet, every chart drawn now as inline SVG, no script, nothing
 * remote — or, with --format md, the same tables as Markdown.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { parseHTML } from 'linkedom';
import { defaultWebDir } from '../api/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { type ChartDocument, reportHtml, reportMarkdown } from '../web/index.js';
import { parseTarget } from './compare-command.js';
import { loadRuns } from './compare-inputs.js';
import { CliError, EXIT } from './exit-codes.js';
import { writeFileAtomic } from './files.js';
import { type StoreCliFlags, addStoreOptions } from './store-flags.js';

export interface ReportFlags extends StoreCliFlags {
  out?: string;
  format: string;
  target?: string;
}

/** The page's built stylesheet, so the report looks as the page does. */
async function pageCss(): Promise<string> {
  const dir = defaultWebDir();
  const index = await readFile(join(dir, 'index.html'), 'utf8').catch(() => null);
  const href = index === null ? null : (/<link[^>]+rel="stylesheet"[^>]+href="\.?\/?([^"]+\.css)"/.exec(index)?.[1] ?? null);
  if (href === null || href.includes('..')) throw new CliError(EXIT.internal, `the page's stylesheet is not built in ${dir}: run \`npm run build\``);
  return readFile(join(dir, href), 'utf8');
}

export async function writeReport(args: readonly string[], flags: ReportFlags, now = new Date()): Promise<string> {
  if (flags.format !== 'html' && flags.format !== 'md') throw new CliError(EXIT.usage, `--format: '${flags.format}' is not html or md`);
  const target = parseTarget(flags.target);
  if (flags.out !== undefined && flags.out.trim() === '') throw new CliError(EXIT.usage, '--out: must name a file');
  const loaded = await loadRuns(args, flags, 'goodput report', 1);
  const input = { runs: loaded.map((l) => ({ label: l.label, result: l.result })), target, generator: TOOL_VERSION, generatedAt: now.toISOString() };
  const text =
    flags.format === 'md'
      ? reportMarkdown(input)
      : reportHtml(input, parseHTML('<!doctype html><html><body></body></html>').document as unknown as ChartDocument, await pageCss());
  if (flags.out === undefined || flags.out === '-') process.stdout.write(text);
  else await writeFileAtomic(flags.out, text);
  return text;
}

export function registerReportCommand(program: Command): void {
  addStoreOptions(
    program
      .command('report')
      .description('write 1 to 8 runs (stored ids or result files) as one self-contained HTML file (charts inline, no network) or Markdown')
      .argument('<runs...>', "stored run ids, repeat sets of stored runs (4+5+6), or result JSON files; with several, the first is the comparison's baseline")
      .option('--out <file>', 'write here (default: standard output)')
      .option('--format <html|md>', 'html: one self-contained page; md: tables for a pull request', 'html')
      .option('--target <tok/s>', 'the speed per user the capacity answer is given at (default: the middle of the range the runs cover)'),
  ).action(async (args: string[], flags: ReportFlags) => {
    await writeReport(args, flags);
    if (flags.out !== undefined && flags.out !== '-') process.stderr.write(`wrote ${flags.out}\n`);
  });
}
