/**
 * Text generation's endpoints as a table: the route each one calls, how its
 * key is sent, the stream it reads, and for each feature whether it works
 * (the test file that shows it) or is refused (the reason the sweep gives).
 * It sits beside the capability matrix (one column per kind) as the matrix of
 * the text kind's own endpoints, and docs/capabilities.md is generated from
 * both; a test checks each named test file exists and that each refusal is
 * the sweep spec's own words. Where an endpoint cannot force the output
 * length it is no refusal but a warning (requests that end short are
 * flagged), said in the stream row.
 */
import type { Capability } from './capabilities.js';
import type { TEXT_ENDPOINTS } from './run-kinds.js';

/** The features an endpoint may carry, as a user asks for them. */
export const TEXT_FEATURES = {
  route: 'route and key header',
  stream: 'stream read',
  tools: 'tool calls (--tools)',
  schema: 'JSON schema answers (--json-schema)',
  media: 'images and audio (--images, --audio)',
  sessions: 'multi-turn sessions (goodput sessions)',
  azure: 'Azure OpenAI deployments (--azure-deployment)',
  extras: 'extra headers and body (--header, --extra-body)',
} as const;

export type TextFeature = keyof typeof TEXT_FEATURES;

/** One endpoint's row: the route and stream in words, then a cell per feature. */
export type TextEndpointRow = { readonly route: string; readonly stream: string } & {
  readonly [F in Exclude<TextFeature, 'route' | 'stream'>]: Capability;
};

const tools = 'tools need the chat or responses endpoint';
const schema = 'a JSON schema for the answer needs the chat or responses endpoint';
const azureOnly = (e: string): Capability => ({ refused: `an Azure deployment serves chat and completions here, not ${e}` });
const extras: Capability = { works: 'runner/provider-targets.test.ts' };

export const TEXT_ENDPOINT_ROWS: { readonly [E in (typeof TEXT_ENDPOINTS)[number]]: TextEndpointRow } = {
  chat: {
    route: '`/v1/chat/completions`, `Authorization: Bearer`',
    stream: '`chat.completion.chunk` deltas, usage chunk, `[DONE]`',
    tools: { works: 'client/tool-calls.test.ts' },
    schema: { works: 'client/structured-output.test.ts' },
    media: { works: 'sim/image-inputs.test.ts' },
    sessions: { works: 'cli/sessions-command.test.ts' },
    azure: { works: 'runner/provider-targets.test.ts' },
    extras,
  },
  completions: {
    route: '`/v1/completions`, `Authorization: Bearer`',
    stream: '`text_completion` chunks, usage chunk, `[DONE]`',
    tools: { refused: tools },
    schema: { refused: schema },
    media: { refused: 'images are sent in chat messages: they need the chat or responses endpoint, not completions' },
    sessions: { refused: 'sessions are conversations: they need the chat or responses endpoint' },
    azure: { works: 'runner/provider-targets.test.ts' },
    extras,
  },
  responses: {
    route: '`/v1/responses`, `Authorization: Bearer`',
    stream: '`response.*` events, usage in `response.completed`; no forced length (a warning)',
    tools: { works: 'client/responses-api.test.ts' },
    schema: { works: 'client/responses-api.test.ts' },
    media: { works: 'sim/image-inputs.test.ts' },
    sessions: { works: 'cli/responses-command.test.ts' },
    azure: azureOnly('responses'),
    extras,
  },
  messages: {
    route: '`/v1/messages`, `x-api-key` and `anthropic-version`',
    stream: '`message_start`, `content_block_*` (text, thinking as reasoning, tool input), `message_delta` usage, `message_stop`; no forced length (a warning)',
    tools: { refused: tools },
    schema: { refused: schema },
    media: { refused: 'images are sent in chat messages: they need the chat or responses endpoint, not messages' },
    sessions: { works: 'runner/provider-targets.test.ts' },
    azure: azureOnly('messages'),
    extras,
  },
};

const cell = (c: Capability): string => ('works' in c ? `works (\`src/${c.works}\`)` : `refused: ${c.refused}`);

/** The table as Markdown: a row per feature, a column per endpoint. */
export function textEndpointTable(): string {
  const names = Object.keys(TEXT_ENDPOINT_ROWS) as Array<keyof typeof TEXT_ENDPOINT_ROWS>;
  const rows = (Object.keys(TEXT_FEATURES) as TextFeature[]).map((f) => {
    const cells = names.map((e) => {
      const row = TEXT_ENDPOINT_ROWS[e];
      return f === 'route' || f === 'stream' ? row[f] : cell(row[f]);
    });
    return `| ${TEXT_FEATURES[f]} | ${cells.join(' | ')} |`;
  });
  return [`| text generation | ${names.join(' | ')} |`, `| --- | ${names.map(() => '---').join(' | ')} |`, ...rows].join('\n');
}
