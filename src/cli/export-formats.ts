/**
 * goodput's own export formats, each owning its rendering: `jsonl` (one object
 * per request: the columns plus the raw chunk instants), `csv` (the columns),
 * `parquet-free-json` (the same columns as one columnar JSON document, typed,
 * for loading into a dataframe without a Parquet library), and `markdown` (the
 * summary table of the result's levels, and a run over LoRA adapters' figures per
 * adapter as the report gives them; needs no records).
 */
import type { LevelResult, MatrixCell, SweepResult } from '../core/index.js';
import { ADAPTER_CAPTION, ADAPTER_HEADERS, adapterRows } from '../web/index.js';
import { type Cell, EXPORT_COLUMNS, exportRows } from './export-rows.js';
import type { ExportFormat, ExportInput } from './export-format.js';

function sloOf(input: ExportInput) {
  return input.result.run.slo ?? null;
}

function records(input: ExportInput) {
  return input.records ?? [];
}

function csvCell(v: Cell): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const jsonlFormat: ExportFormat = {
  description: 'one JSON object per request: every column plus chunk_ms and chunk_tokens',
  needsRecords: true,
  render(input) {
    const rows = exportRows(records(input), sloOf(input));
    return (
      rows
        .map((row, i) => {
          const r = records(input)[i];
          const obj: Record<string, unknown> = {};
          EXPORT_COLUMNS.forEach((c, j) => {
            obj[c.name] = row[j];
          });
          obj.chunk_ms = r?.chunkNs.map((t) => t / 1e6) ?? [];
          obj.chunk_tokens = r?.chunkTokens ?? [];
          return JSON.stringify(obj);
        })
        .join('\n') + '\n'
    );
  },
};

export const csvFormat: ExportFormat = {
  description: 'one row per request, the columns of the export schema',
  needsRecords: true,
  render(input) {
    const rows = exportRows(records(input), sloOf(input));
    return [EXPORT_COLUMNS.map((c) => c.name).join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n';
  },
};

export const columnarJsonFormat: ExportFormat = {
  description: 'the same columns as one typed, columnar JSON document (Parquet-shaped, no Parquet library needed)',
  needsRecords: true,
  render(input) {
    const rows = exportRows(records(input), sloOf(input));
    const data: Record<string, Cell[]> = {};
    EXPORT_COLUMNS.forEach((c, j) => {
      data[c.name] = rows.map((r) => r[j] as Cell);
    });
    const columns = EXPORT_COLUMNS.map(({ name, type, unit, description }) => ({ name, type, unit, description }));
    return (
      JSON.stringify({
        format: 'goodput-columnar-v1',
        result: input.resultPath,
        contractHash: input.result.contractHash ?? null,
        rows: rows.length,
        columns,
        data,
      }) + '\n'
    );
  },
};

const f = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? '—' : x.toFixed(d));

function levelRow(cell: string, l: LevelResult): string {
  const share = l.goodput?.share;
  return (
    `| ${cell} | ${l.load?.label ?? `${l.concurrency} streams`} | ${l.requests} | ${l.failed}${l.invalid ? ' (invalid)' : ''} | ${f(l.throughputTokS)} | ` +
    `${f(l.ttftMs?.p50)} / ${f(l.ttftMs?.p95)} | ${f(l.tpotMs?.p50, 2)} | ${f(l.e2eMs?.p50, 0)} | ${share === null || share === undefined ? '—' : `${(share * 100).toFixed(1)}%`} |`
  );
}

export const markdownFormat: ExportFormat = {
  description: 'the summary table of the result (levels, or every matrix cell); needs no records',
  needsRecords: false,
  render({ result }: { result: SweepResult }) {
    const cells: Array<Pick<MatrixCell, 'levels'> & { name: string }> = result.matrix
      ? result.matrix.cells.map((c) => ({ name: `${c.index}: ${c.key.prompt}, ${c.key.outputTokens ?? 'corpus'} out, ${c.key.cache}`, levels: c.levels }))
      : [{ name: '0', levels: result.levels }];
    const head = [
      `**${result.run.model}** at ${result.run.url} · ${result.run.startedAt}` +
        (result.contractHash ? ` · contract sha256 \`${result.contractHash.slice(0, 16)}…\`` : ''),
      '',
      '| cell | load | requests | failed | throughput tok/s | TTFT p50 / p95 ms | TPOT p50 ms | e2e p50 ms | goodput share |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ];
    return [...head, ...cells.flatMap((c) => c.levels.map((l) => levelRow(c.name, l))), ...adapterTable(cells)].join('\n') + '\n';
  },
};

const mdCell = (s: string) => s.replace(/\|/g, '\\|');

/** The figures per LoRA adapter (the report's rows, after the cell); nothing for a result without adapters, so its export is as before. */
function adapterTable(cells: ReadonlyArray<Pick<MatrixCell, 'levels'> & { name: string }>): string[] {
  const rows = cells.flatMap((c) => adapterRows(c.levels).map((r) => [c.name, ...r]));
  if (rows.length === 0) return [];
  const heads = ['cell', ...ADAPTER_HEADERS];
  return [
    '',
    `**LoRA adapters.** ${ADAPTER_CAPTION}`,
    '',
    `| ${heads.join(' | ')} |`,
    `| --- | --- | --- |${' ---: |'.repeat(heads.length - 3)}`,
    ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
  ];
}
