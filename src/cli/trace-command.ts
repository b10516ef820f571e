/**
 * `goodput trace synth --agents N`: a seeded synthetic agent trace in the goodput
 * agents form (root agents, sub-agent fan-out, tool waits, turns), for tests and
 * for trying `goodput replay` without downloading a trace. Same flags and seed,
 * same bytes.
 */
import type { Command } from 'commander';
import { LIMITS } from '../core/index.js';
import { synthAgentTrace } from '../workload/index.js';
import { asUsageErrors } from './contract-errors.js';
import { writeFileAtomic } from './files.js';
import { parseNumber } from './parse-flags.js';
import { parseRange } from './sessions-command.js';
import { registerTraceTools } from './trace-tools.js';

interface SynthFlags {
  agents: string;
  fanOut: string;
  turns: string;
  toolWaitS: string;
  delayS: string;
  rootGapS: string;
  systemTokens: string;
  firstTokens: string;
  growTokens: string;
  outTokens: string;
  blockTokens: string;
  seed: string;
  out: string;
}

export function registerTraceCommand(program: Command): void {
  const trace = program.command('trace').description('make, look at and anonymise traces to replay');
  registerTraceTools(trace);
  trace
    .command('synth')
    .description('write a seeded synthetic agent trace (goodput agents JSONL) for goodput replay')
    .requiredOption('--agents <n>', 'root agents (jobs)')
    .option('--fan-out <a..b>', 'sub-agents each root spawns after one of its turns (never its last)', '1..4')
    .option('--turns <a..b>', 'turns per agent session', '2..4')
    .option('--tool-wait-s <a..b>', 'tool wait before each turn after the first, seconds', '0.2..2')
    .option('--delay-s <a..b>', "a sub-agent's start after its parent's turn ends, seconds", '0..0.05')
    .option('--root-gap-s <a..b>', "time between root agents' starts, seconds", '0..1')
    .option('--system-tokens <n>', 'the system prompt every agent opens with (shared blocks)', '256')
    .option('--first-tokens <a..b>', "a session's own first message, tokens", '128..512')
    .option('--grow-tokens <a..b>', 'context each later turn adds (tool result, answer), tokens', '64..256')
    .option('--out-tokens <a..b>', 'output tokens per turn', '16..64')
    .option('--block-tokens <n>', 'prompt tokens per block id', '64')
    .option('--seed <n>', 'seed of every draw', '1')
    .option('--out <file|->', 'where to write the trace (- for stdout)', '-')
    .action(async (flags: SynthFlags) => {
      const whole = { integer: true, min: 1 } as const;
      const lines = await asUsageErrors(async () =>
        synthAgentTrace({
          agents: parseNumber('--agents', flags.agents, { ...whole, limit: 'requestsPerLevel' }),
          fanOut: parseRange('--fan-out', flags.fanOut, { integer: true, min: 0, max: LIMITS.requestsPerLevel.max }),
          turns: parseRange('--turns', flags.turns, { integer: true, min: 1, max: LIMITS.agentTurns.max }),
          toolWaitS: parseRange('--tool-wait-s', flags.toolWaitS, { integer: false, min: 0, max: 3600 }),
          delayS: parseRange('--delay-s', flags.delayS, { integer: false, min: 0, max: 3600 }),
          rootGapS: parseRange('--root-gap-s', flags.rootGapS, { integer: false, min: 0, max: 3600 }),
          systemTokens: parseNumber('--system-tokens', flags.systemTokens, { integer: true, min: 0, limit: 'promptTokens' }),
          firstTokens: parseRange('--first-tokens', flags.firstTokens, { integer: true, min: 1, max: LIMITS.promptTokens.max }),
          growTokens: parseRange('--grow-tokens', flags.growTokens, { integer: true, min: 0, max: LIMITS.promptTokens.max }),
          outTokens: parseRange('--out-tokens', flags.outTokens, { integer: true, min: 1, max: LIMITS.outputTokens.max }),
          blockTokens: parseNumber('--block-tokens', flags.blockTokens, { ...whole, limit: 'traceBlockTokens' }),
          seed: parseNumber('--seed', flags.seed, { integer: true }),
        }),
      );
      const text = lines.join('\n') + '\n';
      if (flags.out === '-') process.stdout.write(text);
      else {
        await writeFileAtomic(flags.out, text);
        process.stderr.write(`wrote ${flags.out}: ${lines.length - 1} agent sessions\n`);
      }
    });
}
