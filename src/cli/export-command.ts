/**
 * `goodput export RESULT.json --format <kind> [--raw RECORDS.jsonl] [--out FILE]`.
 * Formats are a registry keyed by kind, each owning its rendering; a format
 * that needs request records reads them from the `--raw` JSONL the run wrote
 * (results carry summaries, not records), and the records are checked against
 * the result before anything is written.
 */
import type { Command } from 'commander';
import { LIMITS, RUN_KINDS, type RawRecord, type SweepResult, parseRawRecord } from '../core/index.js';
import { readAnyResult } from './cards-command.js';
import { viewOf } from './kind-views.js';
import { CliError, EXIT } from './exit-codes.js';
import { INPUT_FILE } from './json-input.js';
import { FileRefusal, readRegularLines } from '../files/index.js';
import type { ExportFormat } from './export-format.js';
import { columnarJsonFormat, csvFormat, jsonlFormat, markdownFormat } from './export-formats.js';
import { writeFileAtomic } from './files.js';
import { checkOutputFlags, narrowToLevel, writeFilesInto } from './export-level.js';
import { vllmFormat } from './export-vllm.js';
import { badFlag } from './parse-flags.js';

/** Every export format by kind. Add a format here. */
export const EXPORT_FORMATS: Readonly<Record<string, ExportFormat>> = {
  jsonl: jsonlFormat,
  csv: csvFormat,
  'parquet-free-json': columnarJsonFormat,
  markdown: markdownFormat,
  vllm: vllmFormat,
};

/** Reads a `--raw` JSONL file; errors name the line. */
export async function readRawRecords(path: string): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  const line = { bytes: LIMITS.recordLineBytes.max, what: LIMITS.recordLineBytes.what };
  try {
    await readRegularLines(path, { file: INPUT_FILE, line }, (text, n) => {
      if (text.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        throw new CliError(EXIT.usage, `${path}:${n}: not JSON`);
      }
      const parsed = parseRawRecord(value);
      if (!parsed.ok) throw new CliError(EXIT.usage, `${path}:${n}: not a request record: ${parsed.message}`);
      out.push(parsed.record);
    });
  } catch (err) {
    if (err instanceof FileRefusal && err.refused) throw new CliError(EXIT.usage, err.message);
    if (err instanceof FileRefusal) throw new CliError(EXIT.usage, `${path}: cannot read (${err.code})`);
    throw err;
  }
  return out;
}

/** The records must be the result's: as many measured requests as the result counts. */
function checkPairing(result: SweepResult, records: readonly RawRecord[], rawPath: string, resultPath: string): void {
  const levels = result.matrix ? result.matrix.cells.flatMap((c) => c.levels) : result.levels;
  const expected = levels.reduce((n, l) => n + l.requests, 0);
  const measured = records.filter((r) => !r.warmup).length;
  if (measured !== expected) {
    throw new CliError(EXIT.usage, `${rawPath} does not belong to ${resultPath}: it holds ${measured} measured requests, the result counts ${expected}`);
  }
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description(
      'export a result: every request record (jsonl, csv, parquet-free-json), the summary table (markdown), or the vLLM result JSON of each level (vllm)',
    )
    .argument('<result.json>', 'a result written by goodput sweep or goodput run')
    .requiredOption('--format <kind>', `one of ${Object.keys(EXPORT_FORMATS).join(', ')}`)
    .option(
      '--raw <records.jsonl>',
      'the raw records the same run wrote with --raw (needed by record formats unless the result carries its records, as goodput run writes it)',
    )
    .option('--out <file>', 'write to a file (default: stdout)')
    .option('--level <value>', 'export one level only (its value: streams, req/s or burst size)')
    .option('--out-dir <dir>', "per-level formats (vllm): one file per level in this folder, under the tool's own names")
    .action(async (resultPath: string, flags: { format: string; raw?: string; out?: string; level?: string; outDir?: string }) => {
      const format = EXPORT_FORMATS[flags.format];
      if (!format) throw badFlag('--format', `'${flags.format}' is not one of ${Object.keys(EXPORT_FORMATS).join(', ')}`);
      const read = await readAnyResult(resultPath);
      if (read.kind !== 'text') {
        const exportLevels = viewOf(read.kind).exportLevels;
        if (exportLevels === undefined) throw new CliError(EXIT.usage, `${resultPath}: ${RUN_KINDS[read.kind].label} results do not export`);
        const text = exportLevels(read.result, flags.format, flags);
        if (flags.out) await writeFileAtomic(flags.out, text);
        else process.stdout.write(text);
        return;
      }
      // A result of goodput run carries its records (the evidence a receipt recomputes from): they serve as --raw.
      const embedded = read.result.records?.map((r) => ({ ...r, cell: r.cell ?? 0 }));
      if (format.needsRecords && flags.raw === undefined && embedded === undefined) {
        throw badFlag(
          '--raw',
          `--format ${flags.format} exports every request record: give the JSONL file the run wrote with --raw (this result carries none of its own)`,
        );
      }
      checkOutputFlags(flags, format.files !== undefined, flags.format);
      let result = read.result;
      const wanted = format.needsRecords || format.usesRecords;
      let records = !wanted ? null : flags.raw !== undefined ? await readRawRecords(flags.raw) : (embedded ?? null);
      if (records) checkPairing(result, records, flags.raw ?? `${resultPath}'s records`, resultPath);
      if (flags.level !== undefined) ({ result, records } = narrowToLevel(result, records, flags.level, resultPath));
      if (format.usesRecords && records === null)
        process.stderr.write(`note: without --raw, --format ${flags.format} leaves out the per-request figures (listed in the output)\n`);
      if (flags.outDir !== undefined && format.files) {
        for (const path of await writeFilesInto(flags.outDir, format.files({ result, resultPath, records }))) process.stderr.write(`wrote ${path}\n`);
        return;
      }
      const text = format.render({ result, resultPath, records });
      if (flags.out) await writeFileAtomic(flags.out, text);
      else process.stdout.write(text);
    });
}
