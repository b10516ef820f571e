/**
 * The sweep's flags as commander hands them over (strings, as typed). Apart
 * from the sweep command because every command that takes the sweep flags
 * (demo, replay, sessions, the pooling endpoints) reads them, and the sweep
 * command itself dispatches to the pooling one.
 */

export interface SweepFlags {
  url: string;
  model?: string;
  levels: string;
  outputTokens: string;
  promptTokens: string;
  requestsPerLevel: string;
  warmup: string;
  hourlyCost?: string;
  baselineRate?: string;
  json?: string;
  raw?: string;
  thinking: string;
  endpoint: string;
  engine: string;
  apiKey?: string;
  apiKeyEnv?: string;
  gpu?: string;
  forceLength: boolean;
  temperature: string;
  seed: string;
  clientBudgetMs: string;
  clientThreads: string;
  workers?: string;
  workersWait: string;
  timeoutS: string;
  idleTimeoutS: string;
  gpuSource: string;
  dcgmUrl?: string;
  metricsUrl?: string;
  serverMetrics: boolean;
  metricsIntervalMs: string;
  save?: boolean;
  data?: string;
  databaseUrl?: string;
  tokenizer?: string;
  tools?: string;
  toolChoice?: string;
  jsonSchema?: string;
  schemaControl?: string;
}

/** The pooling flags: how many inputs or documents one request carries, and the rerank query's length. */
export interface PoolingFlags {
  batchSize?: string;
  documents?: string;
  queryTokens?: string;
  latencySlo?: string;
  route?: string;
}
