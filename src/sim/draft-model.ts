/**
 * The simulator's draft model (speculative decoding). Each decode step is one
 * verification: the drafter proposes K tokens, position i is accepted with
 * probability P once position i − 1 was (the target rejects the rest), and the
 * step emits the accepted tokens plus the bonus token the target samples itself.
 * Draws are seeded by the step's number, so a run with the same seed and the
 * same order of steps accepts the same tokens. It keeps vLLM's counters
 * (`vllm/v1/spec_decode/metrics.py` SpecDecodingProm: a `_total` counter each, and
 * accepted tokens per position labelled `position`) and renders them for /metrics.
 */
import { VLLM_SPEC_DECODE } from '../core/index.js';
import { promNumber } from './histogram.js';
import { unitFloat } from './random.js';

/** Where the draft stream's draws come from, apart from the profile's seed. */
const DRAFT_STREAM = 0x5bd1e995;

/** A seeded drafter with vLLM's speculative-decoding counters. */
export class DraftModel {
  drafts = 0;
  draftTokens = 0;
  acceptedTokens = 0;
  readonly acceptedPerPos: number[];
  private steps = 0;

  constructor(
    private readonly positions: number,
    private readonly accept: number,
    private readonly seed: number,
  ) {
    this.acceptedPerPos = new Array<number>(positions).fill(0);
  }

  /** One verification step: counts it and returns the tokens it emits (accepted drafts + the bonus token). */
  verify(): number {
    const step = this.steps++;
    let accepted = 0;
    while (accepted < this.positions && unitFloat(this.seed, DRAFT_STREAM, step, accepted) < this.accept) {
      this.acceptedPerPos[accepted] = (this.acceptedPerPos[accepted] as number) + 1;
      accepted++;
    }
    this.drafts++;
    this.draftTokens += this.positions;
    this.acceptedTokens += accepted;
    return accepted + 1;
  }

  /** The counters in the exposition format, labelled with `labels` (`model_name="…"`). */
  render(labels: string): string {
    const counter = (name: string, help: string, lines: string[]): string =>
      [`# HELP ${name} ${help}`, `# TYPE ${name.replace(/_total$/, '')} counter`, ...lines].join('\n');
    return [
      counter(VLLM_SPEC_DECODE.drafts, 'Number of spec decoding drafts.', [`${VLLM_SPEC_DECODE.drafts}{${labels}} ${promNumber(this.drafts)}`]),
      counter(VLLM_SPEC_DECODE.draftTokens, 'Number of draft tokens.', [`${VLLM_SPEC_DECODE.draftTokens}{${labels}} ${promNumber(this.draftTokens)}`]),
      counter(VLLM_SPEC_DECODE.acceptedTokens, 'Number of accepted tokens.', [
        `${VLLM_SPEC_DECODE.acceptedTokens}{${labels}} ${promNumber(this.acceptedTokens)}`,
      ]),
      counter(
        VLLM_SPEC_DECODE.acceptedPerPos,
        'Accepted tokens per draft position.',
        this.acceptedPerPos.map((n, i) => `${VLLM_SPEC_DECODE.acceptedPerPos}{${labels},position="${i}"} ${promNumber(n)}`),
      ),
    ].join('\n');
  }
}
