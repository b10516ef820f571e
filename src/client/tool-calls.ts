/**
 * Tool calls as they stream: each call's name and argument text gathered by its
 * index (OpenAI-style deltas, whole calls, or Ollama's native objects all land
 * here), bounded by the limits table (calls per response, argument bytes), with
 * the instants the record needs. The verdict (parsed, valid) is core's checker,
 * compiled once per tool list.
 */
import { LIMITS, compileTools, sanitizeForTerminal, type ToolCallRecord, type ToolChecker, type ToolsSpec } from '../core/index.js';

/** One call as assembled so far. */
interface Assembling {
  name: string;
  arguments: string;
}

/** What a request sent with tools must know to judge its calls. */
export interface ToolExpectation {
  checker: ToolChecker;
  required: boolean;
}

const CHECKERS = new WeakMap<ToolsSpec, ToolChecker>();

/** The compiled checker of a tools spec (compiled once per spec object) and whether a call is required. */
export function toolExpectation(tools: ToolsSpec): ToolExpectation {
  let checker = CHECKERS.get(tools);
  if (checker === undefined) {
    const compiled = compileTools(tools.tools);
    // Specs are checked when read (workload/tools-file.ts); one that slipped through judges every call unparsed.
    checker = compiled.ok ? compiled.checker : { names: new Set(), judge: () => ({ verdict: 'unparsed', problem: compiled.message }) };
    CHECKERS.set(tools, checker);
  }
  return { checker, required: tools.choice !== 'auto' };
}

/** Gathers one response's tool calls. */
export class ToolCallAccumulator {
  private readonly calls: Assembling[] = [];
  private readonly byIndex = new Map<number, Assembling>();
  private bytes = 0;
  /** Set when a call or its arguments went past a limit: the calls are judged unparsed. */
  cut: string | null = null;
  firstNs: number | null = null;
  argumentsDoneNs: number | null = null;
  argumentTokens = 0;

  /**
   * One delta of call `index` (null: the next call). Returns true when it carried
   * tool-call data (a name or argument text), which makes its chunk a token chunk.
   */
  delta(index: number | null, name: string | null, args: string, nowNs: number): boolean {
    const hasName = name !== null && name !== '';
    if (!hasName && args === '') return false;
    let call = index === null ? undefined : this.byIndex.get(index);
    if (call === undefined) {
      if (this.calls.length >= LIMITS.toolCallsPerResponse.max) {
        this.cut ??= `more than ${LIMITS.toolCallsPerResponse.max} ${LIMITS.toolCallsPerResponse.what}`;
        return true;
      }
      call = { name: '', arguments: '' };
      this.calls.push(call);
      this.byIndex.set(index ?? -this.calls.length, call);
    }
    if (hasName && call.name === '') call.name = name.slice(0, 256);
    if (args !== '') {
      this.bytes += Buffer.byteLength(args);
      if (this.bytes > LIMITS.toolArgumentBytes.max)
        this.cut ??= `tool-call arguments past the limit of ${LIMITS.toolArgumentBytes.max} ${LIMITS.toolArgumentBytes.what}`;
      else call.arguments += args;
      this.argumentsDoneNs = nowNs;
    }
    this.firstNs ??= nowNs;
    return true;
  }

  /** The calls gathered, for the verdict and for tests. */
  list(): ReadonlyArray<Readonly<Assembling>> {
    return this.calls;
  }

  /** The record's tool-call part. `finishReason` 'length' means the output cap cut the last call. */
  toRecord(expect: ToolExpectation, finishReason: string | null): ToolCallRecord {
    const cut = this.cut ?? (finishReason === 'length' && this.calls.length > 0 ? 'the output cap (finish_reason length) cut the tool call short' : null);
    const { verdict, problem } = expect.checker.judge(this.calls, expect.required, cut);
    return {
      required: expect.required,
      calls: this.calls.length,
      names: this.calls.map((c) => sanitizeForTerminal(c.name).slice(0, 256)),
      firstNs: this.firstNs,
      argumentsDoneNs: this.argumentsDoneNs,
      argumentTokens: this.argumentTokens,
      verdict,
      problem: problem === null ? null : sanitizeForTerminal(problem).slice(0, 1024),
    };
  }
}
