/**
 * `goodput runs list|show|export|import`: stored runs. Export writes the result
 * JSON (the schema of `sweep --json`, so `goodput cards` reads it) and,
 * optionally, the raw records as JSON lines.
 */
import type { Command } from 'commander';
import { kindOfEndpoint, qualityScoreLine, qualityScoreSchema, sanitizeForTerminal as clean } from '../core/index.js';
import { historyPeak, historyPeakRate, historyWorkload } from '../web/index.js';
import { type RunDetail, type RunSummary, isPoolingSpec } from '../store/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { recordsText, sayWritten, writeFilesAtomic } from './files.js';
import { viewOf } from './kind-views.js';
import { renderPoolingLevels, renderPoolingResult } from './pooling-view.js';
import { audioLine, imagesLine, renderCards, renderTable } from './render-table.js';
import { type StoreCliFlags, addStoreOptions, withCatalog } from './store-flags.js';

interface ExportFlags extends StoreCliFlags {
  out: string;
  raw?: string;
}

function runId(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new CliError(EXIT.usage, `<id>: '${text}' is not a run id (a positive integer; see goodput runs list)`);
  return Number(text);
}

const fmt = (x: number | null, d = 1) => (x === null ? '—' : x.toFixed(d));

function listText(runs: RunSummary[]): string {
  if (runs.length === 0) return 'no stored runs; run one with: goodput demo, or goodput sweep --url URL --save';
  const head = ['ID', 'Status', 'Started', 'Server', 'Model', 'Endpoint', 'Levels', 'Peak'];
  const rows = runs.map((r) => {
    const peak = historyPeakRate(r);
    return [
      String(r.id),
      r.status,
      r.startedAt.replace('T', ' ').slice(0, 19),
      r.serverName ?? r.targetUrl,
      r.model ?? '—',
      r.endpoint ?? '—',
      `${r.levelsDone}/${r.levelsPlanned}`,
      peak === null ? '—' : `${fmt(peak.value)} ${peak.unit} @ ${historyPeak(r)}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  return [head, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] as number))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** An embeddings or rerank run: its table (pooling-view.ts), then how it ended. */
function showPoolingText(r: RunDetail): string {
  const spec = r.spec;
  if (!isPoolingSpec(spec)) throw new Error('not an embeddings or rerank run');
  const what =
    spec.endpoint === 'rerank'
      ? `rerank: a query of ${spec.queryTokens ?? '?'} tokens with ${spec.itemsPerRequest} documents of ${spec.itemTokens} tokens`
      : `embeddings: ${spec.itemsPerRequest} inputs of ${spec.itemTokens} tokens per request`;
  const out = [
    `run ${r.id} · ${r.status} · ${r.serverName === null ? r.targetUrl : `${r.serverName} (${r.targetUrl})`} · model ${r.model ?? 'not known'} · started ${r.startedAt} · ${what}`,
  ];
  for (const w of r.warnings) out.push(`warning: ${w.message}`);
  const result = r.pooling?.result ?? null;
  const levels = r.pooling?.levels ?? [];
  out.push('', result ? renderPoolingResult(result, false) : levels.length > 0 ? renderPoolingLevels(levels, spec, false).join('\n') : 'no level finished');
  if (r.status === 'interrupted') out.push('', `${r.stopReason}. The levels above are kept; an interrupted run is not a result (no peak).`);
  else if (r.status === 'running') out.push('', 'still running: the levels above are those finished so far');
  return out.join('\n');
}

function showText(r: RunDetail): string {
  if (isPoolingSpec(r.spec)) return showPoolingText(r);
  const own = viewOf(kindOfEndpoint(r.spec.endpoint)).storedText;
  if (own) return own(r);
  const out = [
    `run ${r.id} · ${r.status} · ${r.serverName === null ? r.targetUrl : `${r.serverName} (${r.targetUrl})`} · model ${r.model ?? 'not known'} · started ${r.startedAt}` +
      ` · ${historyWorkload(r) === `${r.outputTokens} tok` ? `${r.outputTokens} output tokens` : historyWorkload(r)} · thinking ${r.thinking ? 'on' : 'off'}`,
  ];
  for (const w of r.warnings) out.push(`warning: ${w.message}`);
  out.push('', r.levels.length > 0 ? renderTable(r.levels, false) : 'no level finished');
  for (const line of [imagesLine(r.levels), audioLine(r.levels)]) if (line !== null) out.push(line);
  if (r.cards) out.push('', renderCards(r.cards));
  // The store checked the score when it read the run; the line is the one `goodput run` printed, less the baseline's URL it does not keep.
  const quality = qualityScoreSchema.safeParse(r.extras['quality']);
  if (quality.success) out.push('', `${qualityScoreLine(quality.data)}; measured in the run (goodput run --quality-baseline)`);
  if (r.status === 'interrupted') out.push('', `${r.stopReason}. The levels above are kept; an interrupted run is not a result (no cards).`);
  else if (r.stopReason) out.push('', `Sweep ${r.status}: ${r.stopReason}`);
  return out.join('\n');
}

export function registerRunsCommand(program: Command): void {
  const runs = program.command('runs').description('stored runs: list, show, export and import');
  addStoreOptions(runs.command('list').description('the run history, newest first').option('--json', 'print JSON')).action(async (f: StoreCliFlags) => {
    const list = await withCatalog(f, 'goodput runs list', (c) => c.listRuns(), true);
    process.stdout.write((f.json ? JSON.stringify(list, null, 2) : clean(listText(list), { keepNewlines: true })) + '\n');
  });
  addStoreOptions(runs.command('show').description('one run: its levels, warnings and cards').argument('<id>', 'run id').option('--json', 'print JSON')).action(
    async (id: string, f: StoreCliFlags) => {
      const run = await withCatalog(f, 'goodput runs show', (c) => c.getRun(runId(id)), true);
      process.stdout.write((f.json ? JSON.stringify(run, null, 2) : clean(showText(run), { keepNewlines: true })) + '\n');
    },
  );
  addStoreOptions(
    runs
      .command('export')
      .description('write a finished run as the result JSON of goodput sweep --json')
      .argument('<id>', 'run id')
      .option('--out <file|->', 'where to write the result JSON', '-')
      .option('--raw <file>', 'also write its raw request records as JSON lines'),
  ).action(async (id: string, f: ExportFlags) => {
    const n = runId(id);
    if (f.raw !== undefined && f.raw === f.out) throw new CliError(EXIT.usage, '--raw: must be a different file from --out');
    const { result, records } = await withCatalog(
      f,
      'goodput runs export',
      async (c) => ({
        result: await c.exportRun(n),
        records: f.raw === undefined ? null : await c.runRecords(n),
      }),
      true,
    );
    const json = JSON.stringify(result, null, 2) + '\n';
    // The result and its records are written together or not at all.
    const raw = f.raw !== undefined && records ? [{ path: f.raw, text: recordsText(records) }] : [];
    await writeFilesAtomic(f.out === '-' ? raw : [{ path: f.out, text: json }, ...raw]);
    if (f.out === '-') process.stdout.write(json);
    sayWritten([f.out, f.raw]);
  });
  addStoreOptions(
    runs
      .command('import')
      .description('store a result its sweep could not store (e.g. the goodput serve it saved through stopped)')
      .argument('<result.json>', 'the result the sweep wrote with --json')
      .option(
        '--raw <records.jsonl>',
        'the raw records the same sweep wrote with --raw (not needed when the result carries its records, as goodput run writes it)',
      ),
  ).action(async (path: string, f: StoreCliFlags & { raw?: string }) => {
    // Loaded when used: it reads result and record files, which listing runs never does.
    const id = await (await import('./runs-import.js')).importRun(path, f.raw, f);
    process.stdout.write(`stored as run ${id}\n`);
  });
}
