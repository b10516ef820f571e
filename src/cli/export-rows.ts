/**
 * Raw records as flat export rows: every record of the `--raw` file (warm-ups
 * included and marked), its raw instants in ms since the run's start, the
 * metrics derived from them, and its verdict against the run's SLOs. The
 * column list is the schema the README documents.
 */
import {
  type RawRecord,
  type Slo,
  e2eFromScheduleMs,
  e2eMs,
  judgeRequest,
  sendLagMs,
  toolArgumentsMs,
  toolTtftMs,
  tpotMs,
  ttfaMs,
  ttftFromScheduleMs,
  ttftMs,
} from '../core/index.js';

export type Cell = string | number | boolean | null;

export interface ExportColumn {
  name: string;
  type: 'int' | 'float' | 'string' | 'bool';
  unit: string;
  description: string;
  get(r: RawRecord, slo: Slo | null): Cell;
}

const ms = (ns: number | null) => (ns === null ? null : ns / 1e6);
const failure = (r: RawRecord): string | null => {
  const o = r.outcome;
  return o.kind === 'ok' ? null : 'message' in o ? o.message : o.kind;
};

export const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { name: 'cell', type: 'int', unit: '', description: 'matrix cell (0 without a matrix)', get: (r) => r.cell },
  { name: 'level', type: 'float', unit: 'axis', description: 'level value: streams, req/s, burst size, trace speed or sessions/s', get: (r) => r.concurrency },
  { name: 'seq', type: 'int', unit: '', description: 'sequence within the level, warm-ups first', get: (r) => r.seq },
  { name: 'warmup', type: 'bool', unit: '', description: 'warm-up request, excluded from every metric', get: (r) => r.warmup },
  {
    name: 'outcome',
    type: 'string',
    unit: '',
    description:
      'ok, http-error, stream-error, truncated, timeout, connection-error, response-too-large, stream-overrun, aborted, cancelled (given up on purpose: --cancel-after-ms, --cancel-after-tokens), client-lost, not-sent',
    get: (r) => r.outcome.kind,
  },
  { name: 'failure', type: 'string', unit: '', description: 'failure message (null when ok)', get: failure },
  { name: 'http_status', type: 'int', unit: '', description: 'HTTP status', get: (r) => r.httpStatus },
  { name: 'prompt_tokens', type: 'int', unit: 'tokens', description: 'usage.prompt_tokens', get: (r) => r.promptTokens },
  { name: 'cached_prompt_tokens', type: 'int', unit: 'tokens', description: 'prompt tokens served from the prefix cache', get: (r) => r.cachedPromptTokens },
  { name: 'output_tokens', type: 'int', unit: 'tokens', description: 'output tokens, reasoning included', get: (r) => r.outputTokens },
  { name: 'output_token_source', type: 'string', unit: '', description: 'usage, tokenizer or chunks', get: (r) => r.outputTokenSource },
  { name: 'reasoning_tokens', type: 'int', unit: 'tokens', description: 'reasoning tokens when reported', get: (r) => r.reasoningTokens },
  { name: 'finish_reason', type: 'string', unit: '', description: 'finish reason', get: (r) => r.finishReason },
  { name: 'chunks', type: 'int', unit: '', description: 'token-carrying chunks', get: (r) => r.chunkNs.length },
  { name: 'target_send_ms', type: 'float', unit: 'ms', description: 'when the scheduler meant to send it', get: (r) => ms(r.targetSendNs) },
  { name: 'send_ms', type: 'float', unit: 'ms', description: 'handed to the socket', get: (r) => ms(r.sendNs) },
  { name: 'first_token_ms', type: 'float', unit: 'ms', description: 'first chunk with generated text', get: (r) => ms(r.firstTokenNs) },
  { name: 'end_ms', type: 'float', unit: 'ms', description: 'end of stream', get: (r) => ms(r.endNs) },
  { name: 'send_lag_ms', type: 'float', unit: 'ms', description: 'send − target send (our own lag)', get: (r) => sendLagMs(r) },
  { name: 'ttft_ms', type: 'float', unit: 'ms', description: 'time to first token', get: (r) => ttftMs(r) },
  { name: 'ttfa_ms', type: 'float', unit: 'ms', description: 'time to first answer token', get: (r) => ttfaMs(r) },
  { name: 'tpot_ms', type: 'float', unit: 'ms', description: 'time per output token after the first chunk', get: (r) => tpotMs(r) },
  { name: 'e2e_ms', type: 'float', unit: 'ms', description: 'send → end of stream', get: (r) => e2eMs(r) },
  {
    name: 'ttft_from_schedule_ms',
    type: 'float',
    unit: 'ms',
    description: 'target send → first token (open loops: what a user due then waits)',
    get: (r) => ttftFromScheduleMs(r),
  },
  { name: 'e2e_from_schedule_ms', type: 'float', unit: 'ms', description: 'target send → end of stream', get: (r) => e2eFromScheduleMs(r) },
  {
    name: 'tool_verdict',
    type: 'string',
    unit: '',
    description: 'sent with tools: valid, invalid, unparsed, missing or none (null without tools)',
    get: (r) => r.toolCalls?.verdict ?? null,
  },
  { name: 'tool_calls', type: 'int', unit: '', description: 'tool calls in the answer (null without tools)', get: (r) => r.toolCalls?.calls ?? null },
  { name: 'tool_names', type: 'string', unit: '', description: 'the called tools, ";"-separated', get: (r) => r.toolCalls?.names.join(';') ?? null },
  { name: 'tool_ttft_ms', type: 'float', unit: 'ms', description: 'time to first tool-call token', get: (r) => toolTtftMs(r) },
  { name: 'tool_arguments_ms', type: 'float', unit: 'ms', description: 'first tool-call token → arguments complete', get: (r) => toolArgumentsMs(r) },
  {
    name: 'tool_argument_tokens',
    type: 'int',
    unit: 'tokens',
    description: 'tokens of the chunks carrying tool-call data',
    get: (r) => r.toolCalls?.argumentTokens ?? null,
  },
  { name: 'tool_problem', type: 'string', unit: '', description: 'why the calls were not valid', get: (r) => r.toolCalls?.problem ?? null },
  {
    name: 'schema_sent',
    type: 'bool',
    unit: '',
    description: 'structured output: sent with the JSON schema (false: a plain control; null without a schema)',
    get: (r) => r.structured?.schema ?? null,
  },
  {
    name: 'schema_verdict',
    type: 'string',
    unit: '',
    description: 'the answer against the schema: valid, invalid or unparsed',
    get: (r) => r.structured?.verdict ?? null,
  },
  { name: 'schema_problem', type: 'string', unit: '', description: 'why the answer did not validate', get: (r) => r.structured?.problem ?? null },
  {
    name: 'session_id',
    type: 'int',
    unit: '',
    description: "multi-turn and agent runs: the session (agent traces: the agent's line order in the trace); null otherwise",
    get: (r) => r.session?.id ?? null,
  },
  {
    name: 'session_turn',
    type: 'int',
    unit: '',
    description: 'multi-turn and agent runs: the turn within its session, from 0; null otherwise',
    get: (r) => r.session?.turn ?? null,
  },
  {
    name: 'slo_met',
    type: 'bool',
    unit: '',
    description: 'met every SLO (null without SLOs)',
    get: (r, slo) => (slo === null ? null : judgeRequest(r, slo).met),
  },
  {
    name: 'slo_missed',
    type: 'string',
    unit: '',
    description: 'SLOs missed, ";"-separated (ttftMs, tpotMs, e2eMs, ttftFromScheduleMs, e2eFromScheduleMs, toolCallValid, failed)',
    get: (r, slo) => (slo === null ? null : judgeRequest(r, slo).missed.join(';')),
  },
  // Last, so a reader that takes the columns by position reads the earlier ones where they were.
  {
    name: 'adapter',
    type: 'string',
    unit: '',
    description: 'the LoRA adapter the request named as its model (--lora); null in a run without adapters',
    get: (r) => r.adapter ?? null,
  },
];

/** One row per record, in EXPORT_COLUMNS order. */
export function exportRows(records: readonly RawRecord[], slo: Slo | null): Cell[][] {
  return records.map((r) => EXPORT_COLUMNS.map((c) => c.get(r, slo)));
}
