/**
 * The events a speech-to-text sweep emits besides the common ones (a warning,
 * a finished level), declared beside its driver and merged into the event
 * union's table (sweep-events.ts): its preflight names the model and the
 * route, and its progress counts requests.
 */
// The augmented module is named here so the compiler resolves it before merging.
import './sweep-events.js';

declare module './sweep-events.js' {
  interface KindEvents {
    transcriptions:
      | { kind: 'preflight'; model: string; path: string }
      | { kind: 'level-start'; concurrency: number; index: number; total: number; requests: number }
      | { kind: 'request'; concurrency: number; done: number; failed: number; requests: number; warmup: boolean };
  }
}
