/**
 * A replay's spec parts from its read trace: the trace's arrival and prompts,
 * with the speeds as levels. One function for `goodput replay` (a trace file)
 * and the API's start body (an agent trace's text picked in the page), so a
 * replay started either way is the same run.
 */
import { type AgentTrace, type Trace, WorkloadError, agentReplayParts, parseAgentTrace, replayParts } from '../workload/index.js';
import { SweepError } from './errors.js';
import type { SweepSpecInput } from './sweep-spec.js';

type ReplayParts = Pick<SweepSpecInput, 'arrival' | 'prompts' | 'levels' | 'warmup' | 'requestsPerLevel' | 'cache'>;

/**
 * What every replay holds beside its trace: levels are speeds, no warm-ups (they would shift the recorded
 * schedule), every request of the trace, and no per-request cache salt: requests share prefixes and
 * sessions share their history on purpose (the run's own salt word keeps runs apart).
 */
function replayOf(parts: Pick<SweepSpecInput, 'arrival' | 'prompts'>, speeds: number[]): ReplayParts {
  return { ...parts, levels: speeds, warmup: 0, requestsPerLevel: 'auto', cache: 'warm' };
}

/** A request trace's replay: its requests at their recorded offsets. */
export function traceReplaySpec(trace: Trace, speeds: number[], o: { blockTokens: number; maxConcurrency: number | null }): ReplayParts {
  return replayOf(replayParts(trace, o), speeds);
}

/** An agent trace's replay: its roots at their recorded starts, each turn after its tool and its sub-agents. */
export function agentReplaySpec(trace: AgentTrace, speeds: number[]): ReplayParts {
  return replayOf(agentReplayParts(trace), speeds);
}

/** "agent trace goodput-agents: 8 jobs, 12 sub-agents, 40 turns; sha256 0123456789ab…" */
export function agentTraceSummary(trace: AgentTrace): string {
  const sessions = trace.source.sessions;
  const roots = sessions.filter((s) => s.parent === null).length;
  const subs = sessions.length - roots;
  const turns = sessions.reduce((a, s) => a + s.turns.length, 0);
  return `agent trace ${trace.format}: ${roots} job${roots === 1 ? '' : 's'}, ${subs} sub-agent${subs === 1 ? '' : 's'}, ${turns} turns; sha256 ${trace.sha256.slice(0, 12)}…`;
}

/**
 * An agent trace given as text (named by its file's name) as a replay's spec parts, and its summary.
 * @throws SweepError 'bad-input' naming the line and what is wrong with it.
 */
export function agentReplayOfText(name: string, text: string, speeds: number[]): { parts: ReplayParts; summary: string } {
  let trace: AgentTrace;
  try {
    trace = parseAgentTrace(name, text);
  } catch (err) {
    throw err instanceof WorkloadError ? new SweepError('bad-input', err.message) : err;
  }
  return { parts: agentReplaySpec(trace, speeds), summary: agentTraceSummary(trace) };
}
