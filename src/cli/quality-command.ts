/**
 * `goodput quality --baseline URL --candidate URL`: the quality score of a
 * candidate configuration against a baseline, printed with its evaluator and
 * scale note (`--json FILE|-` also writes it as JSON). Bad input or a server
 * that cannot be scored ends with exit code 2 and writes nothing.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { formatQualityScore, runIdOf, sanitizeForTerminal, sweepResultSchema } from '../core/index.js';
import { QualityError, scoreQuality, type QualityOptions, type QualityRun } from '../quality/index.js';
import { CliError, EXIT } from './exit-codes.js';
import { writeFileAtomic } from './files.js';
import { unguarded } from './terminal-guard.js';
import { readJsonInput } from './json-input.js';
import { badFlag, parseChoice, parseNumber, parseUrl } from './parse-flags.js';

/** The flags as commander hands them over. */
export interface QualityFlags {
  baseline: string;
  candidate: string;
  model?: string;
  candidateModel?: string;
  endpoint: string;
  json?: string;
  apiKeyEnv: string;
  candidateApiKeyEnv?: string;
  timeoutS: string;
  baselineRun?: string;
  candidateRun?: string;
}

/**
 * The runs a score is bound to (--baseline-run and --candidate-run, both or
 * neither): each result's run id and the server account it recorded.
 */
export async function runsFromFlags(f: Pick<QualityFlags, 'baselineRun' | 'candidateRun'>): Promise<QualityOptions['runs']> {
  if (f.baselineRun === undefined && f.candidateRun === undefined) return undefined;
  if (f.baselineRun === undefined || f.candidateRun === undefined)
    throw badFlag(f.baselineRun === undefined ? '--baseline-run' : '--candidate-run', 'is needed too: a score names both runs it belongs to');
  const read = async (flag: string, path: string) => {
    const r = await readJsonInput(flag, path, sweepResultSchema);
    if (!r.ok) throw new CliError(EXIT.usage, r.problems.join('\n'));
    const id = runIdOf(r.value);
    if (id === null) throw badFlag(flag, 'is a result without records or a repeat set, so it has no run id a score can name');
    return { id, ...(r.value.serverAccount === undefined ? {} : { account: r.value.serverAccount }) };
  };
  return { baseline: await read('--baseline-run', f.baselineRun), candidate: await read('--candidate-run', f.candidateRun) };
}

/** Flags → options, or a CliError naming the flag. Reads only the API keys' environment variables. */
export function qualityOptionsFromFlags(f: QualityFlags): QualityOptions {
  const key = (name: string): string | undefined => (process.env[name] === '' ? undefined : process.env[name]);
  if (f.model === '') throw badFlag('--model', 'must not be empty');
  if (f.candidateModel === '') throw badFlag('--candidate-model', 'must not be empty');
  return {
    baseline: { baseUrl: parseUrl('--baseline', f.baseline), apiKey: key(f.apiKeyEnv) },
    candidate: { baseUrl: parseUrl('--candidate', f.candidate), apiKey: key(f.candidateApiKeyEnv ?? f.apiKeyEnv) },
    model: f.model,
    candidateModel: f.candidateModel,
    endpoint: parseChoice('--endpoint', f.endpoint, ['chat', 'completions'] as const),
    timeoutMs: parseNumber('--timeout-s', f.timeoutS, { min: 0, exclusiveMin: true }) * 1000,
  };
}

/** How perplexity was actually scored: the method the score records, never the one tried first. */
function perplexityMethod(run: QualityRun): string {
  const p = run.components.pplDelta;
  if (p.value === null) return `not measured (${p.reason})`;
  if (p.method === 'prefix-scoring') return "/v1/completions, scored by prefix (the next token's logprob after each prefix)";
  return "/v1/completions with echo (the prompt's own logprobs)";
}

/** Narrowest width a report is wrapped to: below it the hanging indents would leave no room for words. */
const MIN_WRAP_COLUMNS = 40;

/**
 * One line folded at spaces to `width` columns, continuation lines indented two
 * past the line's own indent; a word longer than the width stays whole.
 */
export function wrapLine(line: string, width: number): string[] {
  const w = Math.max(MIN_WRAP_COLUMNS, Math.floor(width));
  if (line.length <= w) return [line];
  const indent = ' '.repeat((/^ */.exec(line)?.[0].length ?? 0) + 2);
  const out: string[] = [];
  let current = '';
  for (const word of line.trimStart().split(' ')) {
    const lead = out.length === 0 ? line.slice(0, line.length - line.trimStart().length) : indent;
    if (current === '') current = lead + word;
    else if (current.length + 1 + word.length <= w) current += ' ' + word;
    else {
      out.push(current);
      current = indent + word;
    }
  }
  out.push(current);
  return out;
}

/**
 * The text report: both configurations, then the score block (number, components, evaluator, scale note).
 * With `columns` (a terminal's width) long lines such as the evaluator definition are folded to it;
 * without (a pipe or file) each stays one line, whole for grep.
 */
export function renderQualityRun(run: QualityRun, columns?: number): string {
  // Model ids are the servers' words.
  const text = sanitizeForTerminal(
    [
      `Baseline:  ${run.baseline.url} (${run.baseline.model})`,
      `Candidate: ${run.candidate.url} (${run.candidate.model})`,
      `First-token requests: ${run.endpoint === 'chat' ? '/v1/chat/completions' : '/v1/completions'}; perplexity: ${perplexityMethod(run)}`,
      formatQualityScore(run),
    ].join('\n'),
    { keepNewlines: true },
  );
  return columns === undefined
    ? text
    : text
        .split('\n')
        .flatMap((l) => wrapLine(l, columns))
        .join('\n');
}

export function registerQualityCommand(program: Command): void {
  program
    .command('quality')
    .description('score a candidate configuration against a baseline (first-token KL + perplexity delta)')
    .requiredOption('--baseline <url>', 'base URL of the baseline configuration (typically FP16)')
    .requiredOption('--candidate <url>', 'base URL of the configuration under test')
    .option('--model <name>', 'model id on the baseline, and on the candidate unless --candidate-model (default: the first model listed)')
    .option('--candidate-model <name>', 'model id on the candidate when it differs')
    .addOption(new Option('--endpoint <kind>', 'API of the first-token requests').choices(['chat', 'completions']).default('chat'))
    .option('--api-key-env <name>', 'environment variable holding the API key', 'GOODPUT_API_KEY')
    .option('--candidate-api-key-env <name>', "environment variable holding the candidate's API key (default: --api-key-env)")
    .option('--timeout-s <s>', 'limit of each request, seconds', '60')
    .option('--json <file|->', 'write the score as JSON to a file, or to stdout with -')
    .option('--baseline-run <result.json>', "the baseline's run (goodput run --json): the score names it and must score the server it measured")
    .option('--candidate-run <result.json>', "the candidate's run, likewise (a receipt refuses a score that names no runs or other runs)")
    .action(async (flags: QualityFlags) => {
      const options = { ...qualityOptionsFromFlags(flags), runs: await runsFromFlags(flags) };
      const tty = process.stderr.isTTY === true;
      // The progress line redraws itself (carriage return, erase): goodput's own text, written past the terminal guard.
      const progress = unguarded(process.stderr);
      let run: QualityRun;
      try {
        run = await scoreQuality({ ...options, onProgress: tty ? (done, total) => progress.write(`\rprompts ${done}/${total}`) : undefined });
      } catch (err) {
        if (err instanceof QualityError) throw new CliError(EXIT.usage, `no quality score: ${err.message}`);
        throw err;
      } finally {
        if (tty) progress.write('\r\x1b[K');
      }
      const json = JSON.stringify(run, null, 2) + '\n';
      if (flags.json === '-') return void process.stdout.write(json);
      if (flags.json !== undefined) await writeFileAtomic(flags.json, json);
      process.stdout.write(renderQualityRun(run, process.stdout.isTTY === true ? process.stdout.columns : undefined) + '\n');
    });
}
