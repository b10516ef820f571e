/**
 * The dataset rule on its own: what identifies our machines, files or runs is
 * refused wherever it sits; the words a receipt needs (units, API routes,
 * percentiles, dates, contract JSON) pass.
 */
import { describe, expect, it } from 'vitest';
import { gateDataset } from './gate.js';

const found = (text: string) => gateDataset({ receipts: [{ method: text }] }).map((v) => v.message);

describe('no internal identifiers in dataset.json', () => {
  it.each([
    ['/mnt/models/Qwen2.5-7B-Instruct', 'a file path'],
    ['~/bench/prompts.jsonl', 'a file path'],
    ['C:\\models\\llama', 'a file path'],
    ['gpu-node-17.corp.internal H100', 'an internal hostname'],
    ['served at bench.example.com:8000', 'a host and port'],
    ['see runs 12 and 13', 'a stored run id'],
    ['http://10.0.0.5:8000/v1', 'a URL'],
  ])('refuses %j, naming it as %s and the place', (text, what) => {
    expect(found(text).join('\n')).toContain(`dataset.json .receipts[0].method: contains ${what}`);
  });

  it.each([
    'POST /v1/completions refused echo',
    'tok/s · higher is better',
    'PPL_b / PPL_c',
    'TTFT p50/p95',
    '{"max":500,"p":95}',
    'measured 2026-06-03',
    'fp8 quantization, vllm 0.9.1',
  ])('lets %j through', (text) => {
    expect(found(text)).toEqual([]);
  });
});
