/**
 * The signatures of a repeat set as `goodput run --repeats N` makes it with a
 * signing key: the set's manifest is signed once the first run's prompts are
 * built, before its first measured request, and the set's id is cut from it;
 * each run is signed as it ends, over its index and the manifest's hash.
 * Text and embeddings or rerank sets are sealed alike. An unsigned set keeps
 * a random id and carries no signatures, as before.
 */
import { randomBytes, type KeyObject } from 'node:crypto';
import type { PoolingResult, RunSet, SweepResult } from '../core/index.js';
import { signPoolingRunOfSet, signRunOfSet, signSetManifest } from '../publish/index.js';

export class SetSeal {
  private manifest: ReturnType<typeof signSetManifest> | undefined;
  private readonly runs: RunSet['runs'] = [];
  private readonly unsealed = randomBytes(8).toString('hex');
  private readonly key: KeyObject | undefined;

  /** `key` signs the set when there is one and `n` is more than one run. */
  constructor(
    private readonly n: number,
    key: KeyObject | undefined,
  ) {
    this.key = n > 1 ? key : undefined;
  }

  /** runContract's onPrepared: the manifest over the hash the runs will carry, signed before the first run measures anything. */
  readonly onPrepared = (contractHash: string): Promise<void> => {
    if (this.key !== undefined && this.manifest === undefined) this.manifest = signSetManifest(this.n, contractHash, this.key);
    return Promise.resolve();
  };

  /** Run `i` (0-based) with its place in the set, signed when the set is. */
  place(one: SweepResult, i: number): SweepResult {
    if (this.n === 1) return one;
    const placed = { ...one, run: { ...one.run, repeat: { index: i + 1, of: this.n, set: this.manifest?.set ?? this.unsealed } } };
    if (this.key !== undefined && this.manifest !== undefined) this.runs.push(signRunOfSet(this.manifest.sha256, i + 1, placed, this.key));
    return placed;
  }

  /**
   * Embeddings or rerank run `i` (0-based), signed when the set is: its run
   * facts hold no place in the set, so its signature's index is its place.
   */
  placePooling(one: PoolingResult, i: number): PoolingResult {
    if (this.n > 1 && this.key !== undefined && this.manifest !== undefined) this.runs.push(signPoolingRunOfSet(this.manifest.sha256, i + 1, one, this.key));
    return one;
  }

  /** Whether the set's manifest is signed: its runs are then named by it, not by a random id. */
  get signed(): boolean {
    return this.key !== undefined;
  }

  /** The combined result, of either kind, with the set's signatures when it was signed. */
  seal<R extends SweepResult | PoolingResult>(combined: R): R {
    return this.manifest === undefined ? combined : { ...combined, runSet: { manifest: this.manifest.envelope, runs: [...this.runs] } };
  }
}
