/**
 * Whether a chat request sent with tools gets a tool call, which tool, and its
 * argument text in pieces (one per output token). tool_choice `required` or a
 * named tool always calls, `auto` calls for the profile's `toolCalls.autoShare`
 * of requests, `none` never. Invalid and malformed arguments come at exactly the
 * profile's shares, spread evenly over the server's calls (so a measured rate
 * matches the configured one within a call or two).
 */
import type { SimProfile } from './profile-schema.js';
import type { ChatRequest } from './request-schema.js';
import { hashInts, unitFloat } from './random.js';
import { argumentPieces, argumentsText, type ArgumentsQuality } from './tool-arguments.js';

/** The call a request will stream. */
export interface ToolCallPlan {
  id: string;
  name: string;
  /** The argument text, one piece per output token. */
  pieces: string[];
}

export type ToolPlanResult = { ok: true; call: ToolCallPlan | null } | { ok: false; param: string; message: string };

/** True when index `i` is one of the evenly spread `share` of indices (offset `phase` in 0..1). */
const spread = (i: number, share: number, phase: number): boolean => Math.floor((i + 1) * share + phase) > Math.floor(i * share + phase);

function quality(profile: SimProfile, i: number): ArgumentsQuality {
  const t = profile.toolCalls;
  if (spread(i, t.invalid, 0)) return 'invalid';
  return spread(i, t.malformed, 0.5) ? 'malformed' : 'valid';
}

/**
 * Plans the tool call of request `requestIndex` (`callIndex`: calls made before it, over which invalid and
 * malformed ones are spread), or refuses a named tool_choice that names no tool.
 */
export function planToolCall(profile: SimProfile, body: ChatRequest, requestIndex: number, callIndex: number): ToolPlanResult {
  const tools = body.tools ?? [];
  const choice = body.tool_choice ?? 'auto';
  if (tools.length === 0 || choice === 'none') return { ok: true, call: null };
  let tool = tools[Math.floor(unitFloat(profile.seed, requestIndex, 0x7002) * tools.length)];
  if (typeof choice === 'object') {
    tool = tools.find((t) => t.function.name === choice.function.name);
    if (tool === undefined) return { ok: false, param: 'tool_choice', message: `no tool is named ${JSON.stringify(choice.function.name).slice(0, 80)}.` };
  } else if (choice === 'auto' && unitFloat(profile.seed, requestIndex, 0x7001) >= profile.toolCalls.autoShare) {
    return { ok: true, call: null };
  }
  const t = tool as (typeof tools)[number];
  const text = argumentsText(t.function.parameters, hashInts(profile.seed, requestIndex, 0x7003), quality(profile, callIndex));
  return { ok: true, call: { id: `call_${requestIndex.toString(16).padStart(8, '0')}`, name: t.function.name, pieces: argumentPieces(text) } };
}
