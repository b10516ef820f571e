import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { LevelResult, ServerTruth } from '../../core/index.js';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { SERVER_VIEW_HEADERS, reportHtml, reportMarkdown, serverViewRows } from './index.js';

const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const row = (metric: 'itl-mean-ms' | 'generated-tokens' | 'ttft-mean-ms', client: number, server: number, agrees: boolean) => ({
  metric,
  client,
  server,
  diff: client - server,
  diffPct: ((client - server) / server) * 100,
  allowedMin: -1,
  allowedMax: 1,
  agrees,
  basis: 'test',
});
/** A real llama-server level's account (stories260K, --metrics): llama.cpp counts inter-token time per token, and no TTFT. */
const truth: ServerTruth = {
  metricsUrl: 'http://127.0.0.1:18080/metrics',
  family: 'llamacpp',
  requests: null,
  ttftMeanMs: null,
  itlMeanMs: 95.5263671875,
  itlPer: 'token',
  e2eMeanMs: null,
  queueMeanMs: null,
  generatedTokens: 2048,
  promptTokens: null,
  prefixCacheHitPct: null,
  lateP99Ms: null,
  running: null,
  waiting: { mean: 0, max: 0, samples: 40 },
  kvCacheUsagePct: null,
  missing: ['ttftMs', 'e2eMs'],
  notes: [],
  rttMs: 0.07,
  comparison: [row('itl-mean-ms', 95.87211027156832, 95.5263671875, true), row('generated-tokens', 2048, 2048, true)],
  queued: false,
};
const disagreeing: ServerTruth = { ...truth, itlPer: 'chunk', comparison: [row('ttft-mean-ms', 48.2, 42.9, false)] };
const levels: LevelResult[] = [
  { ...level({ c: 1, ...figures }), serverTruth: truth },
  level({ c: 2, ...figures }),
  { ...level({ c: 4, ...figures }), serverTruth: disagreeing },
];

describe("the server's own account, in the views", () => {
  it("is one row per compared figure, with the terminal's digits: ours, the server's, the difference, whether it agrees", () => {
    // The terminal prints the same level as "inter-token mean (per token) 95.53 ms (ours 95.87, +0.35) · tokens 2048 (ours 2048, +0)".
    expect(serverViewRows(levels)).toEqual([
      ['1 stream', 'inter-token mean (per token)', '95.87 ms', '95.53 ms', '+0.35 ms', 'yes'],
      ['1 stream', 'generated tokens', '2,048', '2,048', '+0', 'yes'],
      ['4 streams', 'TTFT mean', '48.2 ms', '42.9 ms', '+5.3 ms', 'disagrees'],
    ]);
    expect(serverViewRows([level({ c: 1, ...figures })])).toEqual([]);
  });

  it('appears in the report (HTML and Markdown) only where a level has it', () => {
    const input = (ls: LevelResult[]) => ({
      runs: [{ label: 'llama', result: resultOf(contract({ label: 'llama' }), ls) }],
      generator: '0.1.0',
      generatedAt: '2026-06-04T10:00:00.000Z',
    });
    const doc = parseHTML('<!doctype html><html><body></body></html>').document as never;
    const html = parseHTML(reportHtml(input(levels), doc, '')).document;
    const table = [...html.querySelectorAll('table')].find((t) => t.textContent?.includes(SERVER_VIEW_HEADERS[3]));
    expect(table?.textContent).toContain('95.53 ms');
    expect(reportMarkdown(input(levels))).toContain("### The server's own account");
    expect(reportMarkdown(input([level({ c: 1, ...figures })]))).not.toContain("The server's own account");
  });
});
