/**
 * Reasoning that arrives inside `content` (an engine without a reasoning parser,
 * and always on TGI): `<think>…</think>` at the start of the answer, or only a
 * closing `</think>` when the chat template put `<think>` in the prompt (R1
 * style). Tags may be split across chunks. Until a tag is seen, content counts
 * as answer provisionally; a lone `</think>` turns those chunks into reasoning.
 */

const OPEN = '<think>';
const CLOSE = '</think>';
/** Characters kept between chunks so a tag split across them is still found. */
const CARRY = CLOSE.length - 1;
/** Leading text after which an opening tag no longer counts (an answer that mentions <think>). */
const MAX_LEAD = 64;

/** What one content chunk carried once inline tags are accounted for. */
export interface ThinkVerdict {
  reasoning: boolean;
  answer: boolean;
  /** Earlier chunks that had been counted as answer and were reasoning after all. */
  reclassified: number;
}

const ANSWER: ThinkVerdict = { reasoning: false, answer: true, reclassified: 0 };
const REASONING: ThinkVerdict = { reasoning: true, answer: false, reclassified: 0 };

/** Per-stream state machine: open (no tag yet) → thinking → answer. */
export class InlineThink {
  private state: 'open' | 'thinking' | 'answer' = 'open';
  private carry = '';
  /** All open-state text while short: an opening tag counts only at its start. */
  private lead: string | null = '';
  /** Chunks counted as answer while no tag had been seen. */
  private provisional = 0;

  /** Classifies one non-empty content string. */
  classify(text: string): ThinkVerdict {
    if (this.state === 'answer') return ANSWER;
    if (this.state === 'thinking') return this.thinking(this.carry + text, this.carry.length, 0);
    return this.open(text);
  }

  private open(text: string): ThinkVerdict {
    if (this.lead !== null) this.lead = this.lead.length + text.length > MAX_LEAD ? null : this.lead + text;
    const trimmed = this.lead === null ? '' : this.lead.trimStart();
    if (trimmed.startsWith(OPEN)) {
      const earlier = this.provisional;
      this.provisional = 0;
      this.state = 'thinking';
      return this.thinking(trimmed.slice(OPEN.length), 0, earlier);
    }
    // A tag can only end in a chunk that has its '>': most answer chunks skip the search.
    if (text.includes('>')) {
      const s = this.carry + text;
      const close = s.indexOf(CLOSE);
      if (close !== -1) {
        const earlier = this.provisional;
        this.provisional = 0;
        return this.closed(s, this.carry.length, close, earlier);
      }
    }
    this.provisional++;
    this.carry = text.length >= CARRY ? text.slice(-CARRY) : (this.carry + text).slice(-CARRY);
    return ANSWER;
  }

  /** `s` = carried characters (the first `carried`) + this chunk's text, inside the reasoning. */
  private thinking(s: string, carried: number, reclassified: number): ThinkVerdict {
    const close = s.indexOf(CLOSE);
    if (close !== -1) return this.closed(s, carried, close, reclassified);
    this.carry = s.slice(-CARRY);
    return reclassified === 0 ? REASONING : { ...REASONING, reclassified };
  }

  /**
   * The closing tag is at `close` in `s`. The chunk is reasoning when it carried reasoning
   * text before the tag (or nothing but the tag), and answer when text follows the tag.
   */
  private closed(s: string, carried: number, close: number, reclassified: number): ThinkVerdict {
    this.state = 'answer';
    this.carry = '';
    const before = close > carried ? s.slice(carried, close) : '';
    const after = s.slice(close + CLOSE.length);
    const answer = after !== '';
    return { reasoning: before.trim() !== '' || !answer, answer, reclassified };
  }
}
