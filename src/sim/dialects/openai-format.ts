/**
 * A ResponseFormat that writes an OpenAI-shaped stream the way one engine does,
 * driven by its {@link OpenAiStyle}. One instance per response: it remembers
 * whether the role was sent and where inline `<think>` tags stand.
 */
import { toolDeltaJson, toolMessageJson, type ResponseFormat, type ResponseIdentity } from '../response-format.js';
import { progressJson, splitTokens, usageCounts, type OpenAiStyle } from './openai-style.js';

const q = JSON.stringify;
const finishJson = (f: string | null): string => (f === null ? 'null' : `"${f}"`);

/** The format of `kind` ('chat' or 'completion') in `style`. */
export function openAiFormat(kind: 'chat' | 'completion', idn: ResponseIdentity, style: OpenAiStyle): ResponseFormat {
  const object = kind === 'chat' ? 'chat.completion.chunk' : 'text_completion';
  const ident = (id: string) => `{"id":${q(id)},"object":"${object}","created":${idn.created},"model":${q(idn.model)}${style.extraFields}`;
  const head = ident(idn.id);
  const event = (choice: string, tail: string): string => `data: ${head},"choices":[${choice}]${tail}}${style.eventSuffix}\n\n`;
  const chatChoice = (delta: string, finish: string | null, lp: string | null) =>
    `{"index":0,"delta":${delta},"logprobs":${lp ?? 'null'},"finish_reason":${finishJson(finish)}}`;
  const textChoice = (text: string, finish: string | null, lp: string | null) =>
    `{"index":0,"text":${q(text)},"logprobs":${lp ?? 'null'},"finish_reason":${finishJson(finish)}}`;
  let roleSent = style.role.kind === 'opening';
  let opened = false;
  let closed = false;

  /** Content text with inline think tags; reasoning text dropped when hidden. */
  const inline = (r: string, a: string, last: boolean): string => {
    if (style.reasoning.kind === 'hidden') return a;
    let out = '';
    if (r !== '' && !opened) {
      opened = true;
      out += '<think>';
    }
    out += r;
    if (opened && !closed && (a !== '' || last)) {
      closed = true;
      out += '</think>';
    }
    return out + a;
  };
  const delta = (r: string, a: string, last: boolean): string | null => {
    const parts: string[] = [];
    if (style.role.kind === 'every-chunk' || !roleSent) parts.push('"role":"assistant"');
    if (style.reasoning.kind === 'field') {
      if (r !== '') parts.push(`${q(style.reasoning.field)}:${q(r)}`);
      if (a !== '' || r === '') parts.push(`"content":${q(a)}`);
    } else {
      const content = inline(r, a, last);
      if (content === '') return null;
      parts.push(`"content":${q(content)}`);
    }
    roleSent = true;
    return `{${parts.join(',')}}`;
  };
  /** The (reasoning, answer) pieces of one step, one event each. */
  const pieces = (r: string, a: string): Array<[string, string]> => {
    if (style.eventPerToken) return [...splitTokens(r).map((t): [string, string] => [t, '']), ...splitTokens(a).map((t): [string, string] => ['', t])];
    if (style.reasoning.kind === 'field' && style.reasoning.splitMixed && r !== '' && a !== '')
      return [
        [r, ''],
        ['', a],
      ];
    return [[r, a]];
  };

  const tools: Pick<ResponseFormat, 'toolChunk' | 'toolBody'> =
    kind === 'completion'
      ? {}
      : {
          toolChunk(call, args, finish, usage) {
            const role = style.role.kind === 'every-chunk' || !roleSent ? '"role":"assistant",' : '';
            roleSent = true;
            const ownFinish = finish !== null && style.finish.kind === 'own-chunk';
            let out = event(chatChoice(`{${role}${toolDeltaJson(call, args)}}`, ownFinish ? null : finish, null), progressJson(style, usage));
            if (ownFinish && style.finish.kind === 'own-chunk') out += event(chatChoice(style.finish.delta, finish, null), progressJson(style, null));
            return out;
          },
          toolBody(call, args, finish, usage) {
            const top = `{"id":${q(idn.id)},"object":"chat.completion","created":${idn.created},"model":${q(idn.model)}${style.extraFields}`;
            return `${top},"choices":[{"index":0,"message":${toolMessageJson(call, args)},"logprobs":null,"finish_reason":"${finish}"}],"usage":${style.usage(usageCounts(usage))}}`;
          },
        };

  return {
    kind,
    ...tools,
    wire: style.wire,
    opening(usage) {
      if (kind === 'completion') return style.preamble + (style.completionOpening ? event(textChoice('', null, null), progressJson(style, usage)) : '');
      if (style.role.kind !== 'opening') return style.preamble;
      const content = style.role.content === null ? '' : `,"content":${style.role.content}`;
      return style.preamble + event(chatChoice(`{"role":"assistant"${content}}`, null, null), progressJson(style, usage));
    },
    chunk(reasoning, answer, finish, usage, logprobs) {
      const list = pieces(reasoning, answer);
      const ownFinish = finish !== null && style.finish.kind === 'own-chunk';
      let out = '';
      list.forEach(([r, a], i) => {
        const lastPiece = i === list.length - 1;
        const f = lastPiece && !ownFinish ? finish : null;
        const tail = progressJson(style, lastPiece ? usage : null);
        const lp = i === 0 ? (logprobs ?? null) : null;
        if (kind === 'completion') return void (out += event(textChoice(r + a, f, lp), tail));
        const d = delta(r, a, finish !== null && lastPiece);
        if (d !== null || f !== null) out += event(chatChoice(d ?? '{"content":""}', f, lp), tail);
      });
      if (ownFinish && style.finish.kind === 'own-chunk') {
        const choice = kind === 'chat' ? chatChoice(style.finish.delta, finish, null) : textChoice('', finish, null);
        out += event(choice, progressJson(style, null));
      }
      return out;
    },
    usageChunk: (usage) => `data: ${ident(style.usageChunkId ?? idn.id)},"choices":[],"usage":${style.usage(usageCounts(usage))}}${style.eventSuffix}\n\n`,
    body(reasoning, answer, finish, usage, logprobs) {
      const u = style.usage(usageCounts(usage));
      const top = `{"id":${q(idn.id)},"object":"${kind === 'chat' ? 'chat.completion' : 'text_completion'}","created":${idn.created},"model":${q(idn.model)}${style.extraFields}`;
      if (kind === 'completion') return `${top},"choices":[${textChoice(reasoning + answer, finish, logprobs ?? null)}],"usage":${u}}`;
      const field = style.reasoning.kind === 'field' ? `,${q(style.reasoning.field)}:${reasoning === '' ? 'null' : q(reasoning)}` : '';
      const content = style.reasoning.kind === 'field' ? answer : inline(reasoning, answer, true);
      const message = `{"role":"assistant","content":${q(content)}${field}}`;
      return `${top},"choices":[{"index":0,"message":${message},"logprobs":${logprobs ?? 'null'},"finish_reason":"${finish}"}],"usage":${u}}`;
    },
  };
}
