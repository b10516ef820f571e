/**
 * core/: pure measurement math. No I/O, no clock; tests feed it literals.
 * This door names what other areas use; everything else stays inside core.
 */
export {
  isCancelled,
  isFailed,
  isOk,
  inServerWindow,
  type CancelTrigger,
  type Outcome,
  type Phase,
  type RequestRecord,
  type RetryAttempt,
  type StructuredRecord,
  type ToolCallRecord,
  wholeInstants,
} from './record.js';
export { maxOf, mean, minOf, percentiles } from './percentiles.js';
export {
  e2eFromScheduleMs,
  e2eMs,
  itlPerTokenMs,
  perRequestTokS,
  sendLagMs,
  toolArgumentsMs,
  toolTtftMs,
  tpotMs,
  ttfaMs,
  ttftFromScheduleMs,
  ttftMs,
} from './request-metrics.js';
export { DEFAULT_CLIENT_BUDGET_MS, type Spread } from './client-bound.js';
export { levelRecordsProblem } from './level-records.js';
export { type LevelInput, summarizeLevel } from './level-summary.js';
export { type AdapterLevel, adapterLevelSchema, summarizeAdapters } from './adapter-summary.js';
export { adapterAt, type LoraAdapter, loraMixSchema, loraNameSchema, parseLoraMix } from './lora-mix.js';
export { buildCards, engineCard, modelCard, notSaturated } from './cards.js';
export {
  composeQualityScore,
  KL_WEIGHT,
  PPL_WEIGHT,
  QUALITY_EVALUATOR,
  QUALITY_EVALUATOR_ID,
  QUALITY_SCALE_NOTE,
  type QualityInput,
  type QualityScore,
  type ScoredSide,
} from './quality-score.js';
export { QUALITY_NOISE_STATISTIC, qualityNoise } from './quality-noise.js';
export { qualityDifference, qualityVerdictText } from './quality-difference.js';
export { type FirstTokenPair, type TokenLogprob } from './quality-score-kl.js';
export { type ScoredText } from './quality-score-ppl.js';
export { formatQualityScore, formatScoreValue, qualityScoreLine } from './quality-score-format.js';
export { qualityScoreSchema } from './quality-score-schema.js';
export { recomputeQualityScore } from './quality-evidence.js';
export { runIdOf } from './run-id.js';
export { OPENAI_CHAT_KEYS, OPENAI_COMPLETION_KEYS, TRTLLM_KEYS } from './engine-keys.js';
export {
  type Cards,
  cardsSchema,
  type CellKey,
  type ClientBound,
  type GpuMem,
  type LevelResult,
  levelResultSchema,
  type Matrix,
  type MatrixCell,
  type RepeatRun,
  type RunSet,
  type RunInfo,
  runSchema,
  SCHEMA_VERSION,
  type ServerAccount,
  type ServerConfiguration,
  type ServerSetting,
  type ServerReport,
  serverReportSchema,
  type SweepResult,
  sweepResultSchema,
  type TokenizerInfo,
  type Warning,
  warningSchema,
} from './result-schema.js';
export { type ComparisonRow, type EnergyLevel, type GpuLevel, type ServerMetricsRun, type ServerTruth, type SpecDecode } from './telemetry-schema.js';
export {
  SGLANG_SPEC_ACCEPT_LENGTH,
  SPEC_DECODE_TOLERANCE,
  type SpecDecodeLevel,
  TRTLLM_SPEC_DECODE,
  VLLM_SPEC_DECODE,
  clientTokensPerStep,
  countersFigures,
  describeSpecDecode,
  specDecodeFromRecords,
  specDecodeLevel,
} from './spec-decode.js';
export {
  DISAGG_ROLES,
  type DisaggLevel,
  type DisaggRole,
  type DisaggRoleLevel,
  type DisaggSpec,
  disaggSpecSchema,
  type KvTransfer,
  type TtftSplit,
  disaggLevelSchema,
  kvPhysicsProblem,
} from './disagg-schema.js';
export {
  type DisaggOutcome,
  type RoleScrapes,
  SGLANG_KV_LATENCY,
  VLLM_NIXL,
  VLLM_PREFILL_TIME,
  describeKvTransfer,
  describeRole,
  describeTtftSplit,
  disaggFromRecords,
  disaggLevel,
  measuredSpanMs,
  measuredWindowMs,
} from './disagg.js';
export { parsePrometheusText, type PromScrape } from './prometheus-text.js';
export { seriesList, seriesValue } from './prometheus-series.js';
export { mergeScrapes, scrapeOfSamples, scrapeOfVector } from './prometheus-fleet.js';
export { FAMILY_PREFIXES, type MetricFamily, METRICS_PATHS, requiredNames } from './metric-catalog.js';
export { describeRoles, discoverMetrics, type MetricMap } from './metric-discovery.js';
export {
  type GaugeReading,
  latenessCeilingMs,
  readGauges,
  SERVER_LATENESS_BUCKETS_S,
  SERVER_LATENESS_METRIC,
  type ServerFigures,
  serverFigures,
} from './server-truth.js';
export { boundedRttMs, compareWithServer, describeDisagreement, describeQueue, fastestHeadersMs } from './server-compare.js';
export { boundedWholeRttMs, compareWholeWithServer, fastestAnswerMs } from './whole-compare.js';
export { type GpuCollection, type GpuSample, summarizeGpu } from './gpu-summary.js';
export { ROUTE_POLICIES, type FleetRun, type RoutePolicy, type TargetLevel, fleetRunSchema, slowTarget, targetBreakdown, targetLevelSchema } from './fleet.js';
export {
  ENERGY_GAP_FACTOR,
  ENERGY_MIN_SAMPLES,
  type EnergyWindow,
  energyFromRecords,
  gpuWithEnergy,
  measuredWindow,
  summarizeEnergy,
} from './energy-summary.js';
export { vllmBenchMetrics, type VllmStats, vllmView } from './vllm-bench-metrics.js';
export { ARRIVAL_KINDS, type ArrivalKind, arrivalSchema, type ArrivalSpec, GENERATED_ARRIVALS, type LevelLoad } from './arrival-spec.js';
export {
  type LevelWindow,
  type LoadShape,
  levelWindow,
  loadShapeProblem,
  secondsOf,
  slotOpensAtNs,
  timedRequestIndex,
  timedRequestsPerSlot,
} from './load-shape.js';
export { describeSlo, judgeRequest, type Slo, sloSchema } from './slo.js';
export { levelGoodput } from './goodput.js';
export { BUSINESS_COST_FORMULA, type BusinessCost, businessCost, costLineSchema, costPer1MSuccessfulUsd } from './cost-success.js';
export {
  BUILTIN_PROVIDER_PRICES,
  INTERNAL_HOSTS,
  type ProviderPrice,
  internalSourceHost,
  isCalendarDay,
  priceLine,
  providerPriceFileSchema,
  providerPriceSchema,
  selectProviderPrice,
  spendUsd,
} from './provider-price.js';
export { DecideRefused, type DecideRun, type Decision, HOURS_PER_MONTH, decide, decisionLines } from './decide.js';
export { PROVIDER_COST_BASIS, type ProviderCost, decisionLevel, providerCost, providerCostSchema } from './provider-cost.js';
export { canonicalJson } from './canonical-json.js';
export { leafDifferences } from './leaf-diff.js';
export { sanitizeForTerminal } from './terminal-text.js';
export { outputAsked, serverAddedLabel } from './server-added.js';
export { parseRawRecord, type RawRecord, rawRecordSchema } from './record-schema.js';
export { buildMatrix, cellLabel } from './matrix.js';
export { TEXT_ENDPOINT_ROWS, TEXT_FEATURES, type TextFeature, textEndpointTable } from './text-endpoints.js';
export { hashString53, mulberry32 } from './random.js';
export { redactUrl, urlCredentialProblem } from './url-credentials.js';
export {
  type ExtraHeader,
  REDACTED,
  extraBodyProblem,
  extraBodySchema,
  extraHeadersSchema,
  headerProblem,
  isHeaderName,
  isSecretHeader,
  parseHeaderArg,
  redactedBody,
  redactedHeaders,
} from './request-extras.js';
export {
  levelsSchema,
  limitMessage,
  type LimitName,
  LIMITS,
  MAX_CONCURRENCY,
  MAX_LEVELS,
  MAX_OUTPUT_TOKENS,
  maxEventsPerRequest,
  maxTokensPerRequest,
  RECORD_BOUNDS,
  SHORT_OUTPUT_TOKENS,
} from './limits.js';
export { peakOverlap } from './overlap.js';
export {
  describeInFlight,
  HELD_SHARE,
  heldPct,
  heldShort,
  type InFlight,
  inFlightAtSends,
  inFlightHeld,
  type InFlightRecord,
  inFlightSchema,
} from './in-flight.js';
export {
  MAX_HOOK_CALLS,
  RESET_CACHE_BETWEEN,
  type ResetCacheBetween,
  SERVER_HOOK_KINDS,
  type ServerHookCall,
  type ServerHookKind,
  serverHookCallSchema,
} from './server-hooks.js';
export { type Handicap, handicapsOf, SERVER_SETTINGS, type SettingDoc, type SettingRow, settingRows, settingsOf, settingValueText } from './server-settings.js';
export { limitedCount, limitedInt, overLimit, unionError } from './limit-schema.js';
export { capacityOfLevels, replaySeries, sparkline } from './utilisation.js';
export { summarizeSessions } from './session-summary.js';
export { type AgentSummary, type AgentSummaryInput, summarizeAgents } from './agent-summary.js';
export { summarizeToolCalls, type ToolCallSummary } from './tool-call-summary.js';
export { summarizeStructured } from './structured-summary.js';
export { type CancelledSummary, cancelledNote, summarizeCancelled } from './cancel-summary.js';
export { mergeShareRecords, type ShareRecords, sharesFromRecords, sharesLoad, splitConcurrency, splitRequests, withShares } from './level-shares.js';
export { type AxisLevel, levelAxis, type LevelAxis, levelValue } from './level-axis.js';
export { type Difference, difference, meanStatistic, MIN_REPEATS, percentileStatistic } from './difference.js';
export {
  type AnswerChecker,
  compileAnswerSchema,
  compileTools,
  type ResponseSchemaSpec,
  responseSchemaSpecSchema,
  type ToolChecker,
  type ToolChoice,
  toolChoiceLabel,
  toolChoiceSchema,
  type ToolDefinition,
  type ToolsSpec,
  toolsSpecSchema,
} from './tool-schema.js';
export { isPoolingEndpoint, POOLING_ENDPOINTS, type PoolingEndpoint, type PoolingOutcome, type PoolingRecord } from './pooling-record.js';
export { allFailed, poolingClientLoad, poolingLevel, type PoolingLevel, type PoolingSlo } from './pooling-level.js';
export {
  isPoolingResult,
  poolingCapacity,
  poolingExclusion,
  poolingLevelSchema,
  poolingPeak,
  poolingRecordSchema,
  type PoolingResult,
  poolingResultSchema,
  poolingSloSchema,
} from './pooling-schema.js';
export { poolingCards } from './pooling-cards.js';
export {
  AUDIO_SAMPLE_RATE,
  type AudioInputs,
  audioInputsSchema,
  IMAGE_DELIVERIES,
  IMAGE_FORMATS,
  imageBaseUrlSchema,
  type ImageFiles,
  imageFilesSchema,
  type ImageFormat,
  type ImageInputs,
  imageInputsLabel,
  imageInputsSchema,
} from './image-inputs.js';
export {
  TRANSCRIPTION_ENDPOINTS,
  TRANSCRIPTION_PATH,
  type TranscriptionLevel,
  type TranscriptionRecord,
  type TranscriptionResult,
  transcriptionLevel,
  transcriptionLevelSchema,
  transcriptionResultSchema,
} from './transcription.js';
export { SURFACES, type Capabilities, type Capability, type RefusalWords, type SurfaceName } from './capabilities.js';
export { capabilityOf, capabilityTable, refusalOf, serves } from './capability-matrix.js';
export {
  RUN_KINDS,
  RUN_KIND_NAMES,
  TEXT_ENDPOINTS,
  kindOfEndpoint,
  kindOfResult,
  type LevelOf,
  type RecordOf,
  type ResultOf,
  type RunKind,
  type RunKindName,
  type RunKindShapes,
} from './run-kinds.js';
export {
  RUN_ENDPOINTS,
  RUN_OPTIONS,
  type DeclaredOption,
  START_ENDPOINTS,
  numericDefault,
  optionDefault,
  optionKey,
  runOption,
  startBodyFields,
  startFormFields,
  type AgentTraceBody,
  type BodyField,
  type BodyValue,
  type FormCheck,
  type FormField,
  type OptionGroup,
  type OptionValue,
  type RunEndpoint,
  type RunOption,
  type StartEndpoint,
} from './run-options.js';
export { type HeaderBag, parseDurationMs, parseRateLimitHeaders, parseRetryAfterMs, RETRYABLE_STATUSES, type RateLimitSeen } from './rate-limit.js';
export {
  type LevelRateLimit,
  type LevelRetries,
  limitedReason,
  type RateLimitHeadersSummary,
  summarizeRateLimit,
  summarizeRetries,
} from './rate-limit-summary.js';
export { boundedRetry, DEFAULT_RETRY, type RetryPolicy, retryVerdict, type RetryVerdict } from './retry-policy.js';
export { nextPacedSend, type PaceState } from './rate-pace.js';
export { parseRatePacing, type RatePacing, ratePacingSchema } from './rate-pacing.js';
export { OPTION_PARSERS, type ParsedOptionKey, type ParsedText, type ParsedValue, optionParser, parseOptionText } from './option-parsers.js';
