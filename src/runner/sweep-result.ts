/**
 * A text sweep's result file from what it settled and measured: the run as
 * asked and as it went, its warnings, its levels and the cards. The last step
 * of runSweep (sweep.ts); the field order is the file's.
 */
import { createHash } from 'node:crypto';
import {
  redactedBody,
  redactedHeaders,
  type LevelResult,
  type RunInfo,
  SCHEMA_VERSION,
  type ServerMetricsRun,
  type SweepResult,
  type ToolsSpec,
  type Warning,
  buildCards,
  type ProviderCost,
  providerCost,
  canonicalJson,
  toolChoiceLabel,
} from '../core/index.js';
import type { PreparedSweep } from './sweep-setup.js';
import type { SweepSpec } from './sweep-spec.js';
import { runEnd } from './level-loop.js';

/** How the sweep's levels went: the finished ones, and why it stopped early when it did. */
export interface SweepEnd {
  levels: LevelResult[];
  status: SweepResult['run']['status'];
  stopReason: string | null;
}

/** What the result records beside the levels. */
export interface SweepRecord extends SweepEnd {
  startedAt: string;
  serverMetrics: ServerMetricsRun | null;
  warnings: Warning[];
}

export function sweepResult(spec: SweepSpec, prep: PreparedSweep, r: SweepRecord): SweepResult {
  const { engine, lengths } = prep;
  const { dialect } = engine;
  const { levels } = r;
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      url: spec.url,
      model: prep.model,
      endpoint: spec.endpoint,
      engine: {
        name: dialect.engine,
        version: engine.version,
        dialect: dialect.kind,
        detection: engine.source,
        evidence: engine.evidence,
        sampling: { ...dialect.sampling, ...(spec.topP === null ? {} : { top_p: spec.topP }) },
      },
      outputTokens: spec.outputTokens,
      forceLength: spec.forceLength,
      promptTokens: spec.promptTokens,
      thinking: spec.thinking ? 'on' : 'off',
      temperature: spec.temperature,
      seed: spec.seed,
      levelsRequested: spec.levels,
      levelsOrder: prep.order,
      arrival: spec.arrival,
      ...(spec.durationS === null ? {} : { loadShape: { durationS: spec.durationS, rampUpS: spec.rampUpS ?? 0 } }),
      slo: spec.slo,
      requestsPerLevel: spec.requestsPerLevel,
      warmupPerLevel: spec.warmup,
      hourlyCostUsd: spec.hourlyCostUsd,
      baselineRateUsdPer1M: spec.baselineRateUsdPer1M,
      ...(spec.providerPrice === null ? {} : { providerPrice: spec.providerPrice }),
      gpuLabel: spec.gpuLabel,
      ...runEnd(spec.command, r),
      serverMetrics: r.serverMetrics,
      ...(spec.fleet === null ? {} : { fleet: { urls: spec.fleet.urls, route: spec.fleet.route } }),
      // What went with every request beside the workload, secrets redacted: a reader sees the gateway's hints and options.
      ...(spec.headers.length === 0 ? {} : { headers: redactedHeaders(spec.headers) }),
      ...(spec.extraBody === null ? {} : { extraBody: redactedBody(spec.extraBody) }),
      ...(spec.endpoint === 'messages' ? { anthropicVersion: spec.anthropicVersion } : {}),
      ...(spec.azure === null ? {} : { azure: spec.azure }),
      retry: spec.retry,
      ...(spec.rateLimit === null ? {} : { rateLimit: spec.rateLimit }),
      ...(spec.lora === null ? {} : { lora: spec.lora }),
      ...(spec.tools === null ? {} : { tools: toolsInfo(spec.tools) }),
      ...(spec.responseSchema === null
        ? {}
        : {
            responseSchema: {
              label: spec.responseSchema.label,
              name: spec.responseSchema.name,
              control: spec.responseSchema.control,
              sha256: sha256Of(spec.responseSchema.schema),
            },
          }),
    },
    warnings: r.warnings,
    levels,
    ...(lengths ? { tokenizer: lengths.info } : {}),
    cards: buildCards({ levels, hourlyCostUsd: spec.hourlyCostUsd, baselineRateUsdPer1M: spec.baselineRateUsdPer1M, gpuLabel: spec.gpuLabel }),
    ...providerCostOf(spec, levels),
  };
}

/** A priced run's cost per successful 1M output tokens; nothing for a self-hosted run or one with no goodput. */
function providerCostOf(spec: SweepSpec, levels: readonly LevelResult[]): { providerCost?: ProviderCost } {
  const cost = spec.providerPrice === null ? null : providerCost(levels, spec.promptTokens, spec.providerPrice);
  return cost === null ? {} : { providerCost: cost };
}

/** What the result records of the tools offered: label, count, choice and the definitions' hash. */
function toolsInfo(t: ToolsSpec): NonNullable<RunInfo['tools']> {
  return { label: t.label, count: t.tools.length, choice: toolChoiceLabel(t.choice), sha256: sha256Of(t.tools) };
}

const sha256Of = (v: unknown): string => createHash('sha256').update(canonicalJson(v)).digest('hex');
