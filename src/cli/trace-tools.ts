/**
 * `goodput trace analyse FILE` and `goodput trace anonymise FILE --out F`: a
 * trace looked at before it is replayed (its rate over time, burstiness,
 * lengths, prefix sharing; a ShareGPT file's or an agent trace's sessions),
 * and a copy fit to share (lengths, times and shared blocks kept; text, labels
 * and ids replaced). Both read the file as `goodput replay` does, through the
 * same readers and their checks.
 */
import type { Command } from 'commander';
import { LIMITS } from '../core/index.js';
import { openRegularFile, readRegularFile } from '../files/index.js';
import {
  type SessionAnalysis,
  type TraceAnalysis,
  agentTraceFormat,
  analyseSessions,
  analyseTrace,
  anonymiseTrace,
  loadShareGpt,
  readAgentTrace,
  readTrace,
  sha256Hex,
} from '../workload/index.js';
import { asUsageErrors } from './contract-errors.js';
import { writeFileAtomic } from './files.js';
import { parseNumber } from './parse-flags.js';
import { renderAnalysis } from './trace-analysis-view.js';

/** A ShareGPT file opens with a JSON list; every request trace with an object or a CSV header. Unreadable: not one (the trace reader says why). */
async function isShareGpt(path: string): Promise<boolean> {
  const opened = await openRegularFile(path).catch(() => null);
  if (opened === null) return false;
  try {
    const { buffer, bytesRead } = await opened.handle.read(Buffer.alloc(64), 0, 64, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('[');
  } finally {
    await opened.handle.close();
  }
}

/** The analysis of whatever trace `path` is. */
export async function analyseFile(path: string, bucketS: number | undefined): Promise<TraceAnalysis | SessionAnalysis> {
  if (await isShareGpt(path)) {
    const { source } = await asUsageErrors(() => loadShareGpt(path, { maxSessions: LIMITS.requestsPerLevel.max, thinkS: [0, 0], seed: 1 }));
    const bytes = await readRegularFile(path, { bytes: LIMITS.inputFileBytes.max, what: LIMITS.inputFileBytes.what });
    return analyseSessions({ file: path, format: 'sharegpt', sha256: sha256Hex(bytes) }, source.sessions);
  }
  if ((await asUsageErrors(() => agentTraceFormat(path))) !== null) {
    const t = await asUsageErrors(() => readAgentTrace(path));
    return analyseSessions({ file: path, format: t.format, sha256: t.sha256 }, t.source.sessions);
  }
  const trace = await asUsageErrors(() => readTrace(path));
  for (const w of trace.warnings) process.stderr.write(`goodput: ${w}\n`);
  return analyseTrace(trace, bucketS === undefined ? {} : { bucketS });
}

export function registerTraceTools(trace: Command): void {
  trace
    .command('analyse')
    .description("a trace's rate over time, burstiness (CV and fitted gamma shape of its gaps), lengths, prefix sharing and sessions")
    .argument('<file>', 'a request trace (Mooncake, BurstGPT, Azure, goodput), an agent trace or a ShareGPT file')
    .option('--bucket-s <s>', 'seconds per bucket of the rate over time (default: about a thirtieth of the span)')
    .option('--json', 'print the analysis as JSON')
    .action(async (path: string, flags: { bucketS?: string; json?: boolean }) => {
      const bucketS = flags.bucketS === undefined ? undefined : parseNumber('--bucket-s', flags.bucketS, { min: 0, exclusiveMin: true });
      const a = await analyseFile(path, bucketS);
      process.stdout.write(flags.json ? `${JSON.stringify(a, null, 2)}\n` : renderAnalysis(a));
    });
  trace
    .command('anonymise')
    .description('a copy of a request trace to share: send times, lengths and shared blocks kept; text, labels and ids replaced (Mooncake JSONL)')
    .argument('<file>', 'a request trace (Mooncake, BurstGPT, Azure, goodput)')
    .requiredOption('--out <file>', 'where to write the copy')
    .option('--seed <n>', 'seed of the replacement ids (same trace and seed, same bytes)', '1')
    .action(async (path: string, flags: { out: string; seed: string }) => {
      const seed = parseNumber('--seed', flags.seed, { integer: true, min: 0 });
      const trace = await asUsageErrors(() => readTrace(path));
      await writeFileAtomic(flags.out, anonymiseTrace(trace, seed));
      process.stderr.write(`wrote ${flags.out}: ${trace.requests.length} requests, their times, lengths and shared blocks\n`);
    });
}
