// A stored speech-to-text run on the page: its history row names its endpoint as its workload, and its label says what it is.
import { describe, expect, it } from 'vitest';
import type { RunDetail } from '../../store/index.js';
import { historyWorkload } from './history-model.js';
import { isUndrawnSpec, runLabel } from './identity.js';

const spec = { endpoint: 'transcriptions', levels: [1], audioSeconds: 5 } as unknown as RunDetail['spec'];

describe('a transcriptions run on the page', () => {
  it('is told apart by its endpoint, labelled by it, and named as its history row workload', () => {
    expect(isUndrawnSpec(spec)).toBe(true);
    expect(isUndrawnSpec({ endpoint: 'chat' })).toBe(false);
    expect(runLabel({ id: 7, spec })).toBe('run 7 · transcriptions');
    expect(historyWorkload({ endpoint: 'transcriptions' as never, peakConcurrency: null, outputTokens: undefined as never })).toBe('transcriptions');
  });
});
