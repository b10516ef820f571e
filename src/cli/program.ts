/**
 * The goodput program: every command by name, loaded only when it runs. Kept
 * apart from main.ts (which runs the program when imported) so the help text
 * can be rendered at build time (write-help.ts).
 */
import { Command } from 'commander';
import { TOOL_VERSION } from '../runner/index.js';

type Register = (program: Command) => void;

/**
 * Every command by name, in help order. A command's module (and what it
 * imports: the web charts, the publisher, PGlite) is loaded only when that
 * command runs, or when help lists them all: start-up pays for one command.
 */
export const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  sweep: async () => (await import('./sweep-command.js')).registerSweepCommand,
  demo: async () => (await import('./demo-command.js')).registerDemoCommand,
  cards: async () => (await import('./cards-command.js')).registerCardsCommand,
  replay: async () => (await import('./replay-command.js')).registerReplayCommand,
  sessions: async () => (await import('./sessions-command.js')).registerSessionsCommand,
  trace: async () => (await import('./trace-command.js')).registerTraceCommand,
  utilisation: async () => (await import('./utilisation-command.js')).registerUtilisationCommand,
  run: async () => (await import('./run-command.js')).registerRunCommand,
  rerun: async () => (await import('./rerun-command.js')).registerRerunCommand,
  compare: async () => (await import('./compare-command.js')).registerCompareCommand,
  report: async () => (await import('./report-command.js')).registerReportCommand,
  decide: async () => (await import('./decide-command.js')).registerDecideCommand,
  capacity: async () => (await import('./capacity-command.js')).registerCapacityCommand,
  coldstart: async () => (await import('./coldstart-command.js')).registerColdstartCommand,
  export: async () => (await import('./export-command.js')).registerExportCommand,
  quality: async () => (await import('./quality-command.js')).registerQualityCommand,
  sim: async () => (await import('../sim/index.js')).registerSimCommand,
  worker: async () => (await import('./worker-command.js')).registerWorkerCommand,
  k8s: async () => (await import('./k8s-command.js')).registerK8sCommand,
  serve: async () => (await import('./serve-command.js')).registerServeCommand,
  servers: async () => (await import('./servers-command.js')).registerServersCommand,
  runs: async () => (await import('./runs-command.js')).registerRunsCommand,
  receipt: async () => (await import('./receipt-command.js')).registerReceiptCommand,
  publish: async () => (await import('./publish-command.js')).registerPublishCommand,
  verify: async () => (await import('./verify-command.js')).registerVerifyCommand,
  reproduce: async () => (await import('./reproduce-command.js')).registerReproduceCommand,
  keys: async () => (await import('./keys-command.js')).registerKeysCommand,
};

/** The program for `argv`: only the command it names, none for --version, all of them otherwise (help, a typo). */
export async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('goodput')
    .description('Benchmark OpenAI-compatible LLM inference servers: concurrency sweeps, per-token timing, cost and goodput.')
    .version(TOOL_VERSION)
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  const named = argv[2] === 'help' ? argv[3] : argv[2];
  const loaders =
    named !== undefined && Object.hasOwn(COMMANDS, named)
      ? [COMMANDS[named] as () => Promise<Register>]
      : argv[2] === '--version' || argv[2] === '-V'
        ? []
        : Object.values(COMMANDS);
  for (const register of await Promise.all(loaders.map((load) => load()))) register(program);
  for (const c of program.commands) c.exitOverride();
  return program;
}
