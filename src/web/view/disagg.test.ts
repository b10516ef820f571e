import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { DisaggLevel } from '../../core/index.js';
import { contract, level, resultOf } from '../../test-support/receipt-fixture.js';
import { DISAGG_KV_HEADERS, DISAGG_ROLE_HEADERS, disaggKvRows, disaggRoleRows, reportHtml, reportMarkdown } from './index.js';

const none = { requests: null, promptTokens: null, generatedTokens: null, queueMeanMs: null, prefillMeanMs: null, ttftMeanMs: null, waiting: null, notes: [] };
const rates = { promptTokensPerS: null, promptTokensPerSPerGpu: null, generatedTokensPerS: null, generatedTokensPerSPerGpu: null };
const disagg: DisaggLevel = {
  windowMs: 2000,
  roles: [
    {
      role: 'prefill',
      metricsUrl: 'http://p/metrics',
      family: 'vllm',
      gpus: 2,
      ...none,
      ...rates,
      requests: 8,
      promptTokens: 4000,
      promptTokensPerS: 2000,
      promptTokensPerSPerGpu: 1000,
      queueMeanMs: 12.5,
      prefillMeanMs: 40,
      error: null,
    },
    {
      role: 'decode',
      metricsUrl: 'http://d/metrics',
      family: 'vllm',
      gpus: null,
      ...none,
      ...rates,
      generatedTokens: 6000,
      generatedTokensPerS: 3000,
      error: null,
    },
    { role: 'router', metricsUrl: 'http://r/metrics', family: null, gpus: null, ...none, ...rates, error: 'not found at the start: HTTP 404' },
  ],
  kvTransfer: {
    source: 'vllm-nixl',
    role: 'decode',
    bytes: 250_000_000,
    transfers: 8,
    seconds: 0.25,
    meanTransferMs: 31.25,
    failed: 0,
    levelGbps: 1,
    transferGbps: 8,
    linkGbps: 100,
  },
  ttftSplit: { ttftMs: 120, queueMs: 12.5, prefillMs: 40, transferMs: 31.25, otherMs: 36.25 },
};
const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };
const levels = [level({ c: 1, ...figures }), { ...level({ c: 4, ...figures }), disagg }];

describe("a disaggregated server's pools in the views", () => {
  it('is one row per pool per level that has them, and one KV and TTFT row per such level', () => {
    expect(disaggRoleRows(levels)).toEqual([
      ['4 streams', 'prefill', '2', '2,000', '1,000', '—', '—', '12.5', '40.0', '8', ''],
      ['4 streams', 'decode', '—', '—', '—', '3,000', '—', '—', '—', '—', ''],
      ['4 streams', 'router', '—', '—', '—', '—', '—', '—', '—', '—', 'not found at the start: HTTP 404'],
    ]);
    expect(disaggKvRows(levels)).toEqual([['4 streams', '250.00', '8', '31.25', '1.000', '8.000', '100', '120.0', '12.5', '40.0', '31.25', '36.3']]);
    expect(disaggRoleRows([level({ c: 1, ...figures })])).toEqual([]);
    expect(disaggKvRows([{ ...level({ c: 1, ...figures }), disagg: { ...disagg, kvTransfer: null, ttftSplit: null } }])).toEqual([]);
  });

  it('appears in the report (HTML and Markdown) only where a level has pools', () => {
    const result = resultOf(contract({ label: 'pools' }), levels);
    const input = { runs: [{ label: 'pools', result }], generator: '0.1.0', generatedAt: '2026-06-04T10:00:00.000Z' };
    const doc = parseHTML('<!doctype html><html><body></body></html>').document as never;
    const html = parseHTML(reportHtml(input, doc, '')).document;
    const tables = [...html.querySelectorAll('table')].map((t) => t.textContent ?? '');
    expect(tables.find((t) => t.includes('Prefill mean (ms)'))).toContain('not found at the start: HTTP 404');
    expect(tables.find((t) => t.includes('Gbit/s while transferring'))).toContain('250.00');
    const md = reportMarkdown(input);
    expect(md).toContain(`| ${DISAGG_ROLE_HEADERS.join(' | ')} |`);
    expect(md).toContain(`| ${DISAGG_KV_HEADERS.join(' | ')} |`);
    expect(md).toContain('| 4 streams | prefill | 2 | 2,000 | 1,000 |');
    const plain = resultOf(contract({ label: 'plain' }), [level({ c: 1, ...figures })]);
    expect(reportMarkdown({ ...input, runs: [{ label: 'plain', result: plain }] })).not.toContain('Disaggregated pools');
  });
});
