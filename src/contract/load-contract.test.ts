/** Contract files: every bad field named by its path; defaults; the hash and the diff. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { contractHash } from './contract-hash.js';
import { describeDifferences, diffContracts } from './contract-diff.js';
import { loadContract, validateContract } from './load-contract.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/goodput.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'goodput-contract-'));
const minimal = {
  version: 1,
  server: { url: 'http://127.0.0.1:8000' },
  model: { name: 'm', revision: 'r1', precision: 'bf16', quantization: 'none' },
  workload: { prompts: { kind: 'synthetic', tokens: 64 }, outputTokens: 32 },
  load: { levels: [1, 2] },
  slo: { ttftMs: { p: 95, max: 500 } },
  hardware: { label: 'H100' },
};
let n = 0;
function write(doc: unknown): string {
  const p = join(dir, `c${n++}.yaml`);
  writeFileSync(p, typeof doc === 'string' ? doc : stringify(doc));
  return p;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const patch = (f: (c: Record<string, any>) => void) => {
  const c = structuredClone(minimal) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  f(c);
  return c;
};

describe('loading a contract', () => {
  it('the checked-in example is valid', async () => {
    const c = await loadContract(EXAMPLE);
    expect(c.load.levels).toEqual([1, 2, 4]);
    expect(c.model.tokenizer).toEqual({ kind: 'server' });
    expect(c.thinking).toBe('off');
    expect(c.hardware.priceAsOf).toBe('2025-06-01');
  });
  it('the receipt examples differ only in server, name and model precision: their experiments pair', async () => {
    const at = (f: string) => fileURLToPath(new URL(`../../examples/${f}`, import.meta.url));
    const [base, opt] = await Promise.all([loadContract(at('baseline.yaml')), loadContract(at('optimized.yaml'))]);
    for (const k of ['workload', 'load', 'decoding', 'thinking', 'slo', 'hardware'] as const) expect(opt[k], k).toEqual(base[k]);
    expect(opt.model.name).toBe(base.model.name);
    expect([base.model.precision, opt.model.precision]).toEqual(['bf16', 'fp8']);
    expect(opt.server.url).not.toBe(base.server.url);
  });
  it('applies defaults and makes one value into a list', async () => {
    const c = await loadContract(write(minimal));
    expect(c.workload.cache).toEqual([{ kind: 'cold' }]);
    expect(c.workload.outputTokens).toEqual([32]);
    expect(c.load.pattern).toEqual({ kind: 'concurrency' });
    expect(c.decoding).toEqual({ temperature: 0, topP: 1, seed: 42, ignoreEos: true });
    expect(c.model.tokenizer).toEqual({ kind: 'auto' });
  });
  it('makes corpus and tokenizer paths absolute, relative to the contract file', async () => {
    const c = await loadContract(
      write(
        patch((x) => {
          x.workload.prompts = { kind: 'jsonl', path: 'prompts.jsonl' };
          x.model.tokenizer = { kind: 'file', path: 'tok/tokenizer.json' };
        }),
      ),
    );
    expect(c.workload.prompts).toMatchObject({ path: join(dir, 'prompts.jsonl') });
    expect(c.model.tokenizer).toMatchObject({ path: join(dir, 'tok/tokenizer.json') });
  });

  const bad: Array<[string, unknown, RegExp]> = [
    [
      'an unknown field',
      patch((c) => {
        c.workload.promptz = 1;
      }),
      /workload\.promptz: unknown field/,
    ],
    [
      'a missing field',
      patch((c) => {
        delete c.model.revision;
      }),
      /model\.revision: revision must be text/,
    ],
    [
      'a bad SLO',
      patch((c) => {
        c.slo.ttftMs.p = 150;
      }),
      /slo\.ttftMs\.p: p must be at most 100/,
    ],
    [
      'an SLO with no latency objective',
      patch((c) => {
        c.slo = { qualityFloor: 0.9 };
      }),
      /slo: give at least one of ttftMs, tpotMs, e2eMs/,
    ],
    [
      'an unknown arrival kind',
      patch((c) => {
        c.load.pattern = { kind: 'gamma' };
      }),
      /load\.pattern\.kind: kind must be one of concurrency, rate, burst/,
    ],
    [
      'a fractional concurrency level',
      patch((c) => {
        c.load.levels = [1, 2.5];
      }),
      /load\.levels\[1\]: 2\.5 is not a whole number of streams \(pattern concurrency\)/,
    ],
    [
      'an unknown prompt kind',
      patch((c) => {
        c.workload.prompts = { kind: 'csv', path: 'x' };
      }),
      /workload\.prompts\.kind: kind must be one of synthetic, jsonl, sharegpt/,
    ],
    [
      'a warm prefix as long as the prompt',
      patch((c) => {
        c.workload.cache = [{ kind: 'warm', sharedPrefixTokens: 64 }];
      }),
      /workload\.cache\[0\]\.sharedPrefixTokens: the shared prefix must be shorter/,
    ],
    [
      'a primed prefix as long as the prompt',
      patch((c) => {
        c.workload.cache = [{ kind: 'cold' }, { kind: 'primed', sharedPrefixTokens: 64 }];
      }),
      /workload\.cache\[1\]\.sharedPrefixTokens: the shared prefix must be shorter/,
    ],
    [
      'primes past their limit',
      patch((c) => {
        c.workload.cache = [{ kind: 'primed', sharedPrefixTokens: 16, times: 17 }];
      }),
      /workload\.cache\[0\]\.times: times 17 is above the limit of 16 requests that send a primed cell's shared prefix before each of its levels/,
    ],
    [
      // Before: both ran, as two cells with one key and one label ("primed 16").
      'two primes of one prefix differing only in times',
      patch((c) => {
        c.workload.cache = [
          { kind: 'primed', sharedPrefixTokens: 16 },
          { kind: 'primed', sharedPrefixTokens: 16, times: 4 },
        ];
      }),
      /workload\.cache\[1\]\.sharedPrefixTokens: cache\[0\] primes the same 16-token prefix: a cell is keyed by its prefix, not its times, so both would be one cell; give each prefix once/,
    ],
    [
      // Before: accepted, and the prime warmed the base model's cache, which no adapter's request reads.
      'a primed condition beside LoRA adapters',
      patch((c) => {
        c.workload.cache = [{ kind: 'primed', sharedPrefixTokens: 16 }];
        c.workload.lora = [{ name: 'sql-lora', weight: 1 }];
      }),
      /workload\.cache\[0\]\.kind: a prime is sent to the base model, and an engine caches each LoRA adapter's prefixes apart: with workload\.lora, take cold or warm/,
    ],
    [
      // Before: one condition written without a list was refused as "workload.cache: Invalid input", naming no field.
      'one primed condition, not in a list, with times past its limit',
      patch((c) => {
        c.workload.cache = { kind: 'primed', sharedPrefixTokens: 16, times: 17 };
      }),
      /workload\.cache\[0\]\.times: times 17 is above the limit of 16 requests that send a primed cell's shared prefix before each of its levels/,
    ],
    [
      'one primed condition, not in a list, primed no times',
      patch((c) => {
        c.workload.cache = { kind: 'primed', sharedPrefixTokens: 16, times: 0 };
      }),
      /workload\.cache\[0\]\.times: times must be positive/,
    ],
    [
      'a primed condition with a field of its own',
      patch((c) => {
        c.workload.cache = [{ kind: 'primed', sharedPrefixTokens: 16, every: 'level' }];
      }),
      /workload\.cache\[0\]\.every: unknown field/,
    ],
    [
      'a primed trace replay',
      patch((c) => {
        c.workload = { prompts: { kind: 'trace' }, outputTokens: 'trace', warmup: 0, cache: { kind: 'primed', sharedPrefixTokens: 16 } };
        c.load = { pattern: { kind: 'trace', path: '/x/trace.jsonl' }, levels: [1] };
      }),
      /workload\.cache\[0\]\.kind: a trace replay shares its own blocks: it has no prefix to prime/,
    ],
    [
      'a price without its date',
      patch((c) => {
        c.hardware.gpuHourlyUsd = 6.5;
      }),
      /hardware\.priceAsOf: a price needs the date/,
    ],
    [
      'an overhead without its date',
      patch((c) => {
        Object.assign(c.hardware, { gpuHourlyUsd: 1, priceAsOf: '2025-01-01', overheads: [{ name: 'CPU', usdPerHour: 1 }] });
      }),
      /hardware\.overheads\[0\]\.asOf: asOf must be a date/,
    ],
    [
      'a utilisation above 1',
      patch((c) => {
        Object.assign(c.hardware, { gpuHourlyUsd: 1, priceAsOf: '2025-01-01', utilisation: 1.5, utilisationAsOf: '2025-01-01' });
      }),
      /hardware\.utilisation: utilisation must be at most 1/,
    ],
    [
      '"corpus" output lengths with synthetic prompts',
      patch((c) => {
        c.workload.outputTokens = 'corpus';
      }),
      /workload\.outputTokens: "corpus" needs a jsonl or sharegpt corpus/,
    ],
    [
      'a wrong version',
      patch((c) => {
        c.version = 2;
      }),
      /version: version must be 1/,
    ],
    [
      'a prompt past its limit',
      patch((c) => {
        c.workload.prompts.tokens = [64, 300_000_000];
      }),
      /workload\.prompts\.tokens\[1\]: tokens 300000000 is above the limit of 262144 prompt tokens per request/,
    ],
    [
      'an output past its limit',
      patch((c) => {
        c.workload.outputTokens = 40_000;
      }),
      /workload\.outputTokens: outputTokens 40000 is above the limit of 32768 output tokens per request/,
    ],
    [
      'requests per level past its limit',
      patch((c) => {
        c.workload.requestsPerLevel = 1e9;
      }),
      /workload\.requestsPerLevel: requestsPerLevel 1000000000 is above the limit of 20000/,
    ],
    [
      'images past their limit',
      patch((c) => {
        c.workload.images = { perRequest: 2, width: 0, height: 512, format: 'png' };
      }),
      /workload\.images\.width: image width must be positive/,
    ],
    [
      'images on completions',
      patch((c) => {
        c.server.endpoint = 'completions';
        c.workload.images = { perRequest: 2, width: 512, height: 512, format: 'png' };
      }),
      /workload\.images: images need server\.endpoint chat/,
    ],
    [
      'an image format that does not exist',
      patch((c) => {
        c.workload.images = { perRequest: 2, width: 512, height: 512, format: 'gif' };
      }),
      /workload\.images\.format: image format must be png or jpeg/,
    ],
    [
      'an image delivery that does not exist',
      patch((c) => {
        c.workload.images = { perRequest: 2, width: 512, height: 512, delivery: 'ftp' };
      }),
      /workload\.images\.delivery: image delivery must be data or url/,
    ],
    [
      'a bad setting in a list of images, by its place',
      patch((c) => {
        c.workload.images = ['none', { perRequest: 17, width: 8, height: 8 }];
      }),
      /workload\.images\[1\]\.perRequest: images per request 17 is above the limit of 16/,
    ],
    [
      'an unknown field of an image setting',
      patch((c) => {
        c.workload.images = [{ perRequest: 1, width: 8, height: 8, url: 'x' }];
      }),
      /workload\.images\[0\]\.url: unknown field/,
    ],
    [
      'an empty list of images',
      patch((c) => {
        c.workload.images = [];
      }),
      /workload\.images: images must list at least one setting/,
    ],
    [
      'more image settings than the limit',
      patch((c) => {
        c.workload.images = Array.from({ length: 9 }, (_, i) => ({ perRequest: 1, width: 8 + i, height: 8 }));
      }),
      /workload\.images: images 9 is above the limit of 8 image settings/,
    ],
    [
      '"none" as the only images',
      patch((c) => {
        c.workload.images = 'none';
      }),
      /workload\.images: /,
    ],
    [
      'images by URL to a server off this machine',
      patch((c) => {
        c.server.url = 'http://10.0.0.9:8000';
        c.workload.images = { perRequest: 1, width: 8, height: 8, delivery: 'url' };
      }),
      /workload\.images: images by URL: the server at 10\.0\.0\.9:8000 is not on this machine.*give server\.imageBaseUrl/,
    ],
    [
      'an image server address without a port',
      patch((c) => {
        c.server.imageBaseUrl = 'http://10.0.0.5/x';
        c.workload.images = { perRequest: 1, width: 8, height: 8, delivery: 'url' };
      }),
      /server\.imageBaseUrl: imageBaseUrl must name a port and no path/,
    ],
    [
      'an image server address without images by URL',
      patch((c) => {
        c.server.imageBaseUrl = 'http://10.0.0.5:8090';
      }),
      /server\.imageBaseUrl: applies to images by URL \(delivery url\) alone/,
    ],
    [
      'audio of negative length',
      patch((c) => {
        c.workload.audio = { seconds: -1 };
      }),
      /workload\.audio\.seconds: audio seconds must be positive/,
    ],
    [
      'audio past its limit',
      patch((c) => {
        c.workload.audio = { seconds: 121 };
      }),
      /workload\.audio\.seconds: audio seconds 121 is above the limit of 120 seconds/,
    ],
    [
      'audio in another format',
      patch((c) => {
        c.workload.audio = { seconds: 2, format: 'mp3' };
      }),
      /workload\.audio\.format: /,
    ],
    [
      'audio on completions',
      patch((c) => {
        c.server.endpoint = 'completions';
        c.workload.audio = { seconds: 2 };
      }),
      /workload\.audio: audio needs server\.endpoint chat/,
    ],
    [
      'a level past the concurrency limit',
      patch((c) => {
        c.load.levels = [1, 100_000];
      }),
      /load\.levels\[1\]: level 100000 is above the limit of 4096 concurrent streams/,
    ],
  ];
  for (const [what, doc, message] of bad) {
    it(`names ${what}`, async () => {
      await expect(loadContract(write(doc))).rejects.toThrow(message);
    });
  }
  it('lists every bad field, not only the first', async () => {
    const doc = patch((c) => {
      c.slo.ttftMs.max = -1;
      c.load.levels = [0];
    });
    const err = await loadContract(write(doc)).then(
      () => new Error('no error'),
      (e: unknown) => e as Error,
    );
    expect(err.message).toMatch(/\n {2}slo\.ttftMs\.max: max must be a positive number of ms/);
    expect(err.message).toMatch(/\n {2}load\.levels\[0\]: each level must be positive/);
  });
  it('names a file that cannot be read or is not YAML', async () => {
    await expect(loadContract(join(dir, 'none.yaml'))).rejects.toThrow(/none\.yaml: cannot read \(ENOENT\)/);
    await expect(loadContract(write('version: [1\n  oops: {'))).rejects.toThrow(/not valid YAML/);
    // The offending line and its caret follow the sentence, which no longer ends in a bare "column N:".
    await expect(loadContract(write('a: 1\nb:\n  c: d\n   e: f\n'))).rejects.toThrow(/not valid YAML: .* at line 3, column \d+:\n {2}c: d\n +\^$/);
  });
});

describe('contract hash and differences', () => {
  it('ignores the location and the order fields were written in; changes with anything measured', async () => {
    const a = await loadContract(write(minimal));
    const moved = await loadContract(
      write(
        patch((c) => {
          c.server.url = 'http://10.0.0.1:9000';
        }),
      ),
    );
    const reordered = await loadContract(write(Object.fromEntries(Object.entries(minimal).reverse())));
    const longer = await loadContract(
      write(
        patch((c) => {
          c.workload.outputTokens = 64;
        }),
      ),
    );
    expect(contractHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(contractHash(moved)).toBe(contractHash(a));
    expect(contractHash(reordered)).toBe(contractHash(a));
    expect(contractHash(longer)).not.toBe(contractHash(a));
    // Images are part of the experiment: their count and size change the hash, their bytes follow from it and the seed.
    const images = (w: number) =>
      loadContract(
        write(
          patch((c) => {
            c.workload.images = { perRequest: 2, width: w, height: 512, format: 'png' };
          }),
        ),
      );
    const withImages = await images(512);
    expect(contractHash(withImages)).not.toBe(contractHash(a));
    expect(contractHash(await images(512))).toBe(contractHash(withImages));
    expect(contractHash(await images(256))).not.toBe(contractHash(withImages));
  });
  it('changes with every image and audio field, and not with where the image server listens', async () => {
    const hashOf = async (f: (c: Record<string, any>) => void) => contractHash(await loadContract(write(patch(f)))); // eslint-disable-line @typescript-eslint/no-explicit-any
    const base = await hashOf((c) => {
      c.workload.images = { perRequest: 2, width: 512, height: 512 };
    });
    const variants = await Promise.all([
      hashOf((c) => {
        c.workload.images = { ...{ perRequest: 2, width: 512, height: 512 }, format: 'jpeg' };
      }),
      hashOf((c) => {
        c.workload.images = { ...{ perRequest: 2, width: 512, height: 512 }, delivery: 'url' };
      }),
      hashOf((c) => {
        c.workload.images = { ...{ perRequest: 2, width: 512, height: 512 }, perRequest: 3 };
      }),
      hashOf((c) => {
        c.workload.images = { ...{ perRequest: 2, width: 512, height: 512 }, height: 256 };
      }),
      hashOf((c) => {
        c.workload.images = ['none', { perRequest: 2, width: 512, height: 512 }];
      }),
      hashOf((c) => {
        c.workload.images = { perRequest: 2, width: 512, height: 512 };
        c.workload.audio = { seconds: 2 };
      }),
      hashOf((c) => {
        c.workload.images = { perRequest: 2, width: 512, height: 512 };
        c.workload.audio = { seconds: 3 };
      }),
    ]);
    expect(new Set([base, ...variants]).size).toBe(1 + variants.length);
    // What was left to the defaults hashes as if written out.
    expect(
      await hashOf((c) => {
        c.workload.images = { ...{ perRequest: 2, width: 512, height: 512 }, format: 'png', delivery: 'data' };
      }),
    ).toBe(base);
    // The image server's address is a location.
    const url = await hashOf((c) => {
      c.workload.images = { ...{ perRequest: 2, width: 512, height: 512 }, delivery: 'url' };
    });
    expect(
      await hashOf((c) => {
        c.workload.images = { ...{ perRequest: 2, width: 512, height: 512 }, delivery: 'url' };
        c.server.imageBaseUrl = 'http://10.0.0.5:8090';
      }),
    ).toBe(url);
  });
  it('a corpus or tokenizer file known by its content hash hashes the same wherever it lies', () => {
    const sha = 'a'.repeat(64);
    const at = (dir: string) =>
      validateContract(
        patch((c) => {
          c.workload.prompts = { kind: 'jsonl', path: `${dir}/prompts.jsonl`, sha256: sha };
          c.model.tokenizer = { kind: 'file', path: `${dir}/tokenizer.json`, sha256: sha };
        }),
        'test',
        '/',
      );
    expect(contractHash(at('/home/ann/bench'))).toBe(contractHash(at('/srv/ci/checkout')));
    const other = validateContract(
      patch((c) => {
        c.workload.prompts = { kind: 'jsonl', path: '/x/prompts.jsonl', sha256: 'b'.repeat(64) };
      }),
      'test',
      '/',
    );
    expect(contractHash(other)).not.toBe(contractHash(at('/x')));
  });
  it('so does a replayed trace known by its content hash, and another trace does not', () => {
    const traced = (path: string, sha: string) =>
      validateContract(
        patch((c) => {
          c.workload = { prompts: { kind: 'trace' }, outputTokens: 'trace', warmup: 0 };
          c.load = { pattern: { kind: 'trace', path, sha256: sha }, levels: [1] };
        }),
        'test',
        '/',
      );
    const sha = 'c'.repeat(64);
    expect(contractHash(traced('/home/ann/trace.jsonl', sha))).toBe(contractHash(traced('/srv/ci/trace.jsonl', sha)));
    expect(contractHash(traced('/srv/ci/trace.jsonl', 'd'.repeat(64)))).not.toBe(contractHash(traced('/srv/ci/trace.jsonl', sha)));
  });
  it('lists each differing field with both values', async () => {
    const a = await loadContract(write(minimal));
    const b = await loadContract(
      write(
        patch((c) => {
          c.workload.outputTokens = 64;
          c.load.levels = [1, 2, 4];
        }),
      ),
    );
    expect(describeDifferences(diffContracts(a, b))).toEqual(['  load.levels[2]: (absent) → 4', '  workload.outputTokens[0]: 32 → 64']);
  });
});
