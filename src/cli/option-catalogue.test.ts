/**
 * The option catalogue is the one declaration of a sweep's options: an option
 * added to it shows in --help, the API's start body, the page's Start form and
 * docs/cli.md's table with no other edit, and docs/cli.md never drifts from it.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { RUN_OPTIONS, type RunOption, START_ENDPOINTS, numericDefault, optionKey, optionParser, startFormFields } from '../core/index.js';
import { startRunSchema, startRunSchemaOf } from '../api/index.js';
import { sweepSpecSchema } from '../runner/index.js';
import { ENGINE_CHOICES } from '../client/index.js';
import { addRunOptions, cliFlagTable, helpText, withFlagTable } from './option-flags.js';
import { addSweepOptions } from './sweep-command.js';

const topK: RunOption = {
  flag: '--top-k',
  arg: '<n>',
  value: { type: 'number', integer: true, min: 1, limit: 'promptTokens' },
  default: '40',
  group: 'sweep',
  endpoints: ['chat', 'completions', 'responses'],
  help: 'sample from the k most likely tokens',
  body: { chat: { field: 'topK', value: 'count', form: { id: 'top-k', label: 'Top k', check: 'count', order: 5.5 } } },
};
const extended = [...RUN_OPTIONS, topK];

describe('an option added to the catalogue', () => {
  it('is a flag in --help, with its default', () => {
    const help = addRunOptions(new Command('sweep'), 'sweep', [], extended).helpInformation();
    expect(help.replace(/\s+/g, ' ')).toContain('--top-k <n> sample from the k most likely tokens (default: "40")');
    expect(addRunOptions(new Command('sweep'), 'sweep').helpInformation()).not.toContain('--top-k');
  });

  it('is a field of the API start body for its endpoint, with its default and its limits-table bound', () => {
    const schema = startRunSchemaOf(extended);
    expect(schema.parse({ serverId: 1, levels: [1] })).toMatchObject({ endpoint: 'chat', topK: 40 });
    expect(schema.parse({ serverId: 1, levels: [1], topK: 8 })).toMatchObject({ topK: 8 });
    const tooBig = schema.safeParse({ serverId: 1, levels: [1], topK: 300_000 });
    expect(tooBig.error?.issues[0]).toMatchObject({ path: ['topK'], message: 'topK 300000 is above the limit of 262144 prompt tokens per request' });
    expect(schema.safeParse({ serverId: 1, endpoint: 'embeddings', levels: [1], topK: 8 }).error?.issues[0]?.message).toBe('unknown field(s): topK');
    expect(startRunSchema.safeParse({ serverId: 1, levels: [1], topK: 8 }).error?.issues[0]?.message).toBe('unknown field(s): topK');
  });

  it("is a field of the page's Start form, in its place", () => {
    expect(startFormFields('chat', extended).map((f) => f.form.id)).toEqual([
      'levels',
      'requests',
      'duration',
      'ramp-up',
      'cancel-after-ms',
      'cancel-after-tokens',
      'cancel-fraction',
      'prompt-tokens',
      'top-k',
      'output-tokens',
      'thinking',
      'lora',
      'hourly-cost',
      'baseline-rate',
      'agent-trace',
      'retry',
      'retry-max-wait',
      'rate-limit',
      'extra-body',
    ]);
    expect(startFormFields('embeddings', extended).map((f) => f.form.id)).not.toContain('top-k');
  });

  it("is a row of docs/cli.md's flag table", () => {
    expect(cliFlagTable(extended)).toContain('| `--top-k <n>` | `40` | sample from the k most likely tokens |');
  });
});

describe('the catalogue', () => {
  it('puts every option that declares a start body field in the API body and, where it has one, the form, with no other edit', () => {
    for (const endpoint of START_ENDPOINTS) {
      const parsed = startRunSchema.parse({ serverId: 1, endpoint, levels: [1] }) as unknown as Record<string, unknown>;
      const form = startFormFields(endpoint).map((f) => f.form.id);
      for (const o of RUN_OPTIONS) {
        const field = o.body?.[endpoint];
        if (field === undefined) continue;
        if (field.omitted === undefined) expect(parsed, `${o.flag} in the ${endpoint} body`).toHaveProperty(field.field);
        if (field.form !== undefined) expect(form, `${o.flag} in the ${endpoint} form`).toContain(field.form.id);
      }
    }
    // The provider's options are among them: pacing, retries, the extra body and (API only) the headers.
    const chat = RUN_OPTIONS.filter((o) => o.body?.chat !== undefined).map((o) => o.flag);
    expect(chat).toEqual(expect.arrayContaining(['--rate-limit', '--retry', '--retry-max-wait-s', '--extra-body', '--header']));
    // So are the adapters and the cancellation: a parsed text and optional numbers, kinds any option may take.
    expect(chat).toEqual(expect.arrayContaining(['--lora', '--cancel-after-ms', '--cancel-after-tokens', '--cancel-fraction']));
  });

  it('reads every parsed-text field with the parser the command line uses, and refuses one it cannot read by its field', () => {
    for (const o of RUN_OPTIONS) {
      const field = o.body?.chat;
      if (field?.value !== 'parsed') continue;
      expect(() => optionParser(optionKey(o)), o.flag).not.toThrow();
    }
    const parsedText: RunOption = {
      flag: '--schedule',
      arg: '<plan>',
      value: { type: 'text' },
      group: 'sweep',
      endpoints: ['chat'],
      help: 'a plan with no parser',
      body: { chat: { field: 'schedule', value: 'parsed' } },
    };
    expect(() => startRunSchemaOf([...RUN_OPTIONS, parsedText])).toThrow(
      'option schedule is read as a parsed text but has no parser in core/option-parsers.ts',
    );
  });

  it('bounds an optional number by what the option declares: whole, its least, its own bound and its limits row', () => {
    const share: RunOption = {
      flag: '--keep-share',
      arg: '<share>',
      value: { type: 'number', min: 0, max: 0.9 },
      group: 'sweep',
      endpoints: ['chat'],
      help: 'a share',
      body: { chat: { field: 'keepShare', value: 'optional-number' } },
    };
    const schema = startRunSchemaOf([...RUN_OPTIONS, share]);
    expect(schema.parse({ serverId: 1, levels: [1] })).toMatchObject({ keepShare: null });
    expect(schema.parse({ serverId: 1, levels: [1], keepShare: 0 })).toMatchObject({ keepShare: 0 });
    expect(schema.safeParse({ serverId: 1, levels: [1], keepShare: 0.95 }).error?.issues[0]?.message).toBe('keepShare must be at most 0.9');
    expect(schema.safeParse({ serverId: 1, levels: [1], keepShare: -1 }).error?.issues[0]?.message).toBe('keepShare must be at least 0');
  });

  it("is what docs/cli.md's flag table says (run `npm run docs:cli` after changing it)", () => {
    const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    expect(withFlagTable(doc, cliFlagTable())).toBe(doc);
  });

  it('declares each flag once, and each default the spec, the API and the flags share', () => {
    const flags = RUN_OPTIONS.map((o) => o.flag);
    expect(new Set(flags).size).toBe(flags.length);
    const spec = sweepSpecSchema.parse({ url: 'http://127.0.0.1:8000', levels: [1] });
    expect(spec).toMatchObject({
      outputTokens: numericDefault('outputTokens'),
      promptTokens: numericDefault('promptTokens'),
      warmup: numericDefault('warmup'),
      seed: numericDefault('seed'),
    });
    expect(startRunSchema.parse({ serverId: 1, levels: [1] })).toMatchObject({
      outputTokens: 256,
      promptTokens: 512,
      requestsPerLevel: 'auto',
      thinking: false,
    });
    expect(startRunSchema.parse({ serverId: 1, endpoint: 'rerank', levels: [1] })).toMatchObject({ itemsPerRequest: 32, itemTokens: 512, queryTokens: 32 });
    expect(startRunSchema.parse({ serverId: 1, endpoint: 'embeddings', levels: [1] })).toMatchObject({ itemsPerRequest: 16 });
  });

  it("gives the sweep command every option of its group under commander's key, the engines named where they are defined", () => {
    const cmd = addSweepOptions(new Command('sweep'));
    const keys = cmd.options.map((o) => o.attributeName());
    for (const o of RUN_OPTIONS.filter((x) => x.group === 'sweep')) expect(keys).toContain(optionKey(o));
    expect(helpText(RUN_OPTIONS.find((o) => o.flag === '--engine') as RunOption)).toContain(ENGINE_CHOICES.filter((c) => c !== 'auto').join(', '));
    expect(addSweepOptions(new Command('demo'), false).options.map((o) => o.long)).not.toContain('--url');
  });
});
