/**
 * cli/: the `goodput` commands. main.ts is the executable; this door lets
 * tests (and embedders) build a program from the same command registrations.
 */
export { CliError, EXIT } from './exit-codes.js';
export { registerCardsCommand } from './cards-command.js';
export { registerSweepCommand } from './sweep-command.js';
export { registerServeCommand } from './serve-command.js';
export { registerServersCommand } from './servers-command.js';
export { registerRunsCommand } from './runs-command.js';
export { registerReceiptCommand } from './receipt-command.js';
export { registerPublishCommand } from './publish-command.js';
export { registerVerifyCommand } from './verify-command.js';
export { registerReproduceCommand } from './reproduce-command.js';
export { registerKeysCommand, createKeys } from './keys-command.js';
export { registerCompareCommand } from './compare-command.js';
export { registerExportCommand } from './export-command.js';
export { registerReportCommand } from './report-command.js';
export { registerDecideCommand } from './decide-command.js';
export { guardTerminalWrites } from './terminal-guard.js';
export { registerK8sCommand } from './k8s-command.js';
export { registerRunCommand } from './run-command.js';
export { registerReplayCommand } from './replay-command.js';
export { registerSessionsCommand } from './sessions-command.js';
export { registerCapacityCommand } from './capacity-command.js';
