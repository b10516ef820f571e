/**
 * Hand edits of a receipt document, one violation each, with what the refusal
 * must name and its rule: shared by the publish-level and the CLI-level tests.
 */
import type { Rule } from '../publish/index.js';

export type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const fact = (d: Doc, id: string): Doc => d.facts.find((f: Doc) => f.id === id);

/** An edit of the receipt document, and what its refusal must say. */
export const RECEIPT_EDITS: Array<[string, (d: Doc) => void, string, Rule]> = [
  [
    'images claimed that the runs never sent',
    (d) => {
      d.inputs = ['2 images of 512×512 PNG per request'];
    },
    'inputs: states ["2 images of 512×512 PNG per request"], the evidence gives (absent)',
    'stated-equals-recomputed',
  ],
  [
    'a TTFT raised by hand',
    (d) => {
      fact(d, 'optimized.ttftSingle').value = 40;
    },
    'facts[optimized.ttftSingle].value: states 40',
    'stated-equals-recomputed',
  ],
  [
    'the cost relabelled measured with a made-up value',
    (d) => {
      Object.assign(fact(d, 'optimized.costPer1M'), { provenance: 'measured', value: 0.1 });
    },
    'facts[optimized.costPer1M].value',
    'stated-equals-recomputed',
  ],
  [
    'a peak above its own curve',
    (d) => {
      fact(d, 'optimized.peakThroughput').value = 900;
    },
    'facts[optimized.peakThroughput].value: states 900',
    'stated-equals-recomputed',
  ],
  [
    'a curve point plotting 900 tok/s',
    (d) => {
      fact(d, 'optimized.c2.throughput').value = 900;
    },
    'facts[optimized.c2.throughput].value: states 900',
    'stated-equals-recomputed',
  ],
  [
    'a curve point marked invalid',
    (d) => {
      d.curves.optimized[2].invalid = true;
    },
    'curves.optimized[2].invalid: states true',
    'stated-equals-recomputed',
  ],
  [
    'a curve point marked client-bound',
    (d) => {
      d.curves.baseline[0].clientBound = true;
    },
    'curves.baseline[0].clientBound',
    'stated-equals-recomputed',
  ],
  [
    'a curve point at another concurrency',
    (d) => {
      d.curves.optimized[1].concurrency = 3;
    },
    'curves.optimized[1].concurrency: states 3',
    'stated-equals-recomputed',
  ],
  [
    'a curve point removed',
    (d) => {
      d.curves.optimized.pop();
    },
    'curves.optimized.length: states 2',
    'stated-equals-recomputed',
  ],
  [
    'a bare "avg" statistic',
    (d) => {
      fact(d, 'baseline.ttftSingle').statistic = 'avg';
    },
    'facts[baseline.ttftSingle].statistic: states "avg"',
    'stated-equals-recomputed',
  ],
  [
    'a unit changed',
    (d) => {
      fact(d, 'optimized.tpotSingle').unit = 's';
    },
    'facts[optimized.tpotSingle].unit',
    'stated-equals-recomputed',
  ],
  [
    'a label changed',
    (d) => {
      fact(d, 'optimized.tpotSingle').label = 'Speed';
    },
    'facts[optimized.tpotSingle].label',
    'stated-equals-recomputed',
  ],
  [
    'a number shown with more digits',
    (d) => {
      fact(d, 'optimized.peakThroughput').digits = 6;
    },
    'facts[optimized.peakThroughput].digits',
    'stated-equals-recomputed',
  ],
  [
    'a derivation emptied',
    (d) => {
      fact(d, 'optimized.costPer1M').derivedFrom = [];
    },
    'facts[optimized.costPer1M].derivedFrom.length',
    'stated-equals-recomputed',
  ],
  [
    'a fact moved to the other configuration',
    (d) => {
      fact(d, 'optimized.ttftSingle').configuration = 'baseline';
    },
    'facts[optimized.ttftSingle].configuration',
    'stated-equals-recomputed',
  ],
  [
    'a fact appended',
    (d) => {
      d.facts.push({ ...fact(d, 'optimized.quality'), id: 'optimized.quality2' });
    },
    'facts.length',
    'stated-equals-recomputed',
  ],
  [
    'a second quality score',
    (d) => {
      d.facts.push({ ...fact(d, 'optimized.quality'), value: 0.99 });
    },
    'facts.length',
    'stated-equals-recomputed',
  ],
  [
    'quality 1.45',
    (d) => {
      fact(d, 'optimized.quality').value = 1.45;
    },
    'facts[optimized.quality].value: states 1.45',
    'stated-equals-recomputed',
  ],
  [
    'a negative KL',
    (d) => {
      fact(d, 'optimized.qualityKl').value = -0.5;
    },
    'facts[optimized.qualityKl].value: states -0.5',
    'stated-equals-recomputed',
  ],
  [
    'the failures hidden',
    (d) => {
      fact(d, 'baseline.failedTotal').value = null;
    },
    'facts[baseline.failedTotal].value: states null',
    'stated-equals-recomputed',
  ],
  [
    'a headline swapped to another number',
    (d) => {
      d.headlines[1].factId = 'optimized.ttftSingle';
    },
    'headlines[1].factId',
    'stated-equals-recomputed',
  ],
  [
    'a headline compared against another baseline',
    (d) => {
      d.headlines[0].baselineFactId = 'baseline.c1.throughput';
    },
    'headlines[0].baselineFactId',
    'stated-equals-recomputed',
  ],
  [
    'a direction stated by hand',
    (d) => {
      d.headlines[2].direction = 'higher is better';
    },
    'headlines[2].direction: states "higher is better", the evidence gives (absent)',
    'stated-equals-recomputed',
  ],
  [
    'a chart plotting another number',
    (d) => {
      d.charts[0].factIds = ['baseline.c1.throughput', 'optimized.peakThroughput'];
    },
    'charts[peak-throughput].factIds[0]',
    'stated-equals-recomputed',
  ],
  [
    'a chart retitled',
    (d) => {
      d.charts[2].title = 'TTFT, lower';
    },
    'charts[ttft-single].title',
    'stated-equals-recomputed',
  ],
  [
    'the scale note rewritten',
    (d) => {
      d.quality.scaleNote = 'perfect quality, verified';
    },
    'quality.scaleNote: states "perfect quality, verified"',
    'stated-equals-recomputed',
  ],
  [
    'the evaluator definition rewritten',
    (d) => {
      d.quality.evaluator = 'our own';
    },
    'quality.evaluator',
    'stated-equals-recomputed',
  ],
  [
    'the evaluator id changed',
    (d) => {
      d.quality.evaluatorId = 'goodput-quality-v9';
    },
    'quality.evaluatorId',
    'stated-equals-recomputed',
  ],
  [
    'the quality line rewritten',
    (d) => {
      d.quality.line = 'quality 1.0000';
    },
    'quality.line',
    'stated-equals-recomputed',
  ],
  [
    'the quality verdict softened',
    (d) => {
      d.quality.verdict = 'no difference established from the baseline';
    },
    'quality.verdict: states "no difference established',
    'stated-equals-recomputed',
  ],
  [
    'a quality noise claimed',
    (d) => {
      Object.assign(fact(d, 'optimized.qualityNoise'), { value: 0.05, provenance: 'measured' });
    },
    'facts[optimized.qualityNoise].value: states 0.05',
    'stated-equals-recomputed',
  ],
  [
    'the limitations emptied',
    (d) => {
      d.limitations = [];
    },
    'limitations.length: states 0',
    'stated-equals-recomputed',
  ],
  [
    'a limitation softened',
    (d) => {
      d.limitations[0] = 'Run with care.';
    },
    'limitations[0]: states "Run with care."',
    'stated-equals-recomputed',
  ],
  [
    'the cost exclusions removed',
    (d) => {
      d.costBasis.text = 'The GPU cost.';
    },
    'costBasis.text',
    'stated-equals-recomputed',
  ],
  [
    'the price date moved',
    (d) => {
      d.costBasis.priceAsOf = '2026-06-20';
    },
    'costBasis.priceAsOf',
    'stated-equals-recomputed',
  ],
  [
    'the workload lines emptied',
    (d) => {
      d.workload.lines = [];
    },
    'workload.lines.length: states 0',
    'stated-equals-recomputed',
  ],
  [
    'a workload line rewritten',
    (d) => {
      d.workload.lines[1] = 'load: {"levels":[1,2,4,8],"pattern":{"kind":"concurrency"}}';
    },
    'workload.lines[1]',
    'stated-equals-recomputed',
  ],
  [
    'the workload hash replaced',
    (d) => {
      d.workload.hash = 'c'.repeat(64);
    },
    'workload.hash',
    'stated-equals-recomputed',
  ],
  [
    'a configuration identity rewritten',
    (d) => {
      d.configurations.optimized.identity = 'fp4, vllm 1.0';
    },
    'configurations.optimized.identity',
    'stated-equals-recomputed',
  ],
  [
    'an engine renamed',
    (d) => {
      d.configurations.baseline.engine = 'vllm 0.5.0';
    },
    'configurations.baseline.engine',
    'stated-equals-recomputed',
  ],
  [
    'a contract hash replaced',
    (d) => {
      d.configurations.baseline.contractHash = 'd'.repeat(64);
    },
    'configurations.baseline.contractHash',
    'stated-equals-recomputed',
  ],
  [
    'a date in the future',
    (d) => {
      d.measuredAt = '2027-01-01';
    },
    'measuredAt: states "2027-01-01"',
    'stated-equals-recomputed',
  ],
  [
    'an impossible date',
    (d) => {
      d.configurations.optimized.measuredAt = '2026-02-30';
    },
    'configurations.optimized.measuredAt: states "2026-02-30"',
    'stated-equals-recomputed',
  ],
  [
    'the id changed',
    (d) => {
      d.id = 'best-ever';
    },
    'id: states "best-ever"',
    'stated-equals-recomputed',
  ],
  [
    'the model renamed',
    (d) => {
      d.model = 'bigger-model';
    },
    'model: states "bigger-model"',
    'stated-equals-recomputed',
  ],
  [
    'the hardware renamed',
    (d) => {
      d.hardware = 'H100';
    },
    'hardware: states "H100"',
    'stated-equals-recomputed',
  ],
  [
    'the receipt version changed',
    (d) => {
      d.receiptVersion = 1;
    },
    'receiptVersion: must be 2',
    'schema',
  ],
  [
    'a generator that is not a version',
    (d) => {
      d.generator = 'goodput <script>';
    },
    'generator: must be a goodput version',
    'schema',
  ],
  [
    'an evidence reference that is not a hash',
    (d) => {
      d.evidence.baseline = 'latest';
    },
    'evidence.baseline: must be a sha256',
    'schema',
  ],
  [
    'an evidence reference to a missing file',
    (d) => {
      d.evidence.quality = 'e'.repeat(64);
    },
    `evidence.quality: names evidence/${'e'.repeat(64)}.json.gz, which is not beside the receipt`,
    'evidence-file',
  ],
  [
    'an extra evidence key',
    (d) => {
      d.evidence.extra = 'e'.repeat(64);
    },
    'evidence',
    'schema',
  ],
  [
    'both sides pointed at one run',
    (d) => {
      d.evidence.optimized = d.evidence.baseline;
    },
    'the baseline and the optimized run are the same run',
    'same-workload',
  ],
  [
    'a title with a URL',
    (d) => {
      d.title = 'See https://example.com/results';
    },
    'title: holds a URL',
    'no-internal-identifiers',
  ],
  [
    'a title with an IP address',
    (d) => {
      d.title = 'Served from 10.0.0.7';
    },
    'title: holds an IP address',
    'no-internal-identifiers',
  ],
  [
    'a title with host:port',
    (d) => {
      d.title = 'FP8 on gpu01:8000';
    },
    'title: holds a host:port',
    'no-internal-identifiers',
  ],
  [
    'a title with an internal hostname',
    (d) => {
      d.title = 'FP8 on gpu-node-7.prod.corp';
    },
    'title: holds a hostname',
    'no-internal-identifiers',
  ],
  [
    'a title with a single-label machine name',
    (d) => {
      d.title = 'FP8 on node17';
    },
    'title: holds a machine name',
    'no-internal-identifiers',
  ],
  [
    'a method with a bucket',
    (d) => {
      d.configurations.optimized.method = 'weights from s3://team-bucket/fp8';
    },
    'configurations.optimized.method: holds a URL',
    'no-internal-identifiers',
  ],
  [
    'a method with a Hugging Face token',
    (d) => {
      d.configurations.optimized.method = 'FP8 via hf_abcdefghijklmnopqrstuv';
    },
    'configurations.optimized.method: holds a Hugging Face token',
    'no-internal-identifiers',
  ],
  [
    'a method with an API key',
    (d) => {
      d.configurations.baseline.method = 'stock, key sk-proj-abcdefghijklmnop';
    },
    'configurations.baseline.method: holds an API key',
    'no-internal-identifiers',
  ],
  [
    'a method with a bearer token',
    (d) => {
      d.configurations.baseline.method = 'stock; Bearer abc.def';
    },
    'configurations.baseline.method: holds a bearer token',
    'no-internal-identifiers',
  ],
  [
    'a method claiming 3.2x',
    (d) => {
      d.configurations.optimized.method = 'FP8, 3.2x faster than vLLM';
    },
    'configurations.optimized.method: claims a figure ("3.2x")',
    'no-numeric-claims',
  ],
  [
    'a title claiming a percentage',
    (d) => {
      d.title = 'FP8 is 40% cheaper';
    },
    'title: claims a figure ("40%")',
    'no-numeric-claims',
  ],
  [
    'a title claiming a latency',
    (d) => {
      d.title = 'FP8 answers in 20 ms';
    },
    'title: claims a figure ("20 ms")',
    'no-numeric-claims',
  ],
  [
    'a title claiming a price',
    (d) => {
      d.title = 'FP8 for $0.10';
    },
    'title: claims a figure ("$0")',
    'no-numeric-claims',
  ],
  [
    'a zero-width space',
    (d) => {
      d.title = 'FP8\u200b quantization';
    },
    'title: holds the invisible or control character U+200B',
    'no-control-characters',
  ],
  [
    'a bidi override',
    (d) => {
      d.configurations.optimized.method = 'FP8 \u202equantization';
    },
    'U+202E',
    'no-control-characters',
  ],
  [
    'an escape sequence',
    (d) => {
      d.title = 'FP8 \u001b[2J';
    },
    'U+001B',
    'no-control-characters',
  ],
  [
    'a Cyrillic look-alike',
    (d) => {
      d.title = 'FP8 qu\u0430ntization';
    },
    'title: holds "\u0430" (U+0430)',
    'no-confusables',
  ],
  [
    'fullwidth letters',
    (d) => {
      d.title = 'ＦＰ8 quantization';
    },
    'title: holds "Ｆ" (U+FF26)',
    'no-confusables',
  ],
  [
    'a title past its limit',
    (d) => {
      d.title = `FP8 ${'quantization '.repeat(12)}`;
    },
    'title: is 160 characters, above the limit of 120',
    'text-length',
  ],
  [
    'an empty method',
    (d) => {
      d.configurations.optimized.method = '  ';
    },
    'configurations.optimized.method: is empty',
    'text-length',
  ],
];
