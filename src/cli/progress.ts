/**
 * Live progress on stderr: a bar per level on a terminal, one line per finished
 * level otherwise. stdout stays clean for the table or the JSON. Model ids,
 * evidence and messages come from the server: each is sanitised.
 */
import cliProgress from 'cli-progress';
import pc from 'picocolors';
import { sanitizeForTerminal as clean } from '../core/index.js';
import { unguarded } from './terminal-guard.js';
import type { SweepEvent } from '../runner/index.js';

/**
 * Whether warnings are printed as they come: only when the final report, which lists
 * them, does not reach the same screen or log (JSON on stdout, or stdout sent
 * elsewhere while this stream is a terminal), so each is read once.
 */
export function liveWarnings(jsonToStdout: boolean, stdout: { isTTY?: boolean } = process.stdout, stderr: { isTTY?: boolean } = process.stderr): boolean {
  return jsonToStdout || (stdout.isTTY !== true && stderr.isTTY === true);
}

export function progressReporter(stream: NodeJS.WriteStream, o: { warnings?: boolean } = {}): (e: SweepEvent) => void {
  const showWarnings = o.warnings ?? true;
  const tty = stream.isTTY === true;
  let bar: cliProgress.SingleBar | null = null;
  let startMs = 0;
  return (e) => {
    switch (e.kind) {
      case 'preflight':
        stream.write(`server answers; model ${clean(e.model)}\n`);
        break;
      case 'engine': {
        const how = e.source === 'detected' ? `detected: ${e.evidence.join('; ')}` : 'given with --engine';
        const context = e.context === null ? '' : `; context ${e.context.tokens} tokens (${e.context.source})`;
        stream.write(clean(`engine ${e.label}${e.version === null ? '' : ` ${e.version}`} (${how})${context}`) + '\n');
        break;
      }
      case 'warning':
        if (showWarnings) stream.write(pc.yellow(`warning: ${clean(e.warning.message)}\n`));
        break;
      case 'level-start':
        startMs = performance.now();
        if (tty) {
          bar = new cliProgress.SingleBar(
            {
              stream: unguarded(stream),
              clearOnComplete: false,
              hideCursor: true,
              // A level bounded by time has no count to fill a bar: its requests so far, and how long it sends.
              format:
                e.durationS !== undefined
                  ? `level ${e.index + 1}/${e.total} c=${e.concurrency} for ${e.durationS} s: {value} requests, failed {failed} · {tokS} tok/s`
                  : `level ${e.index + 1}/${e.total} c=${e.concurrency} [{bar}] {value}/{total} failed {failed} · {tokS} tok/s`,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(e.requests, 0, { failed: 0, tokS: '—' });
        }
        break;
      case 'request':
        if (bar && !e.warmup) {
          const s = (performance.now() - startMs) / 1000;
          bar.update(e.done, { failed: e.failed, tokS: s > 0 ? (e.outputTokens / s).toFixed(0) : '—' });
        }
        break;
      case 'level-end': {
        bar?.stop();
        bar = null;
        const l = e.level;
        const mark = l.invalid ? pc.red(` INVALID (${clean(l.invalidReason ?? '')})`) : l.clientBound.bound ? pc.yellow(' client-bound') : '';
        const first = l.failed > 0 && l.failureExamples[0] !== undefined ? `; first failure: ${clean(l.failureExamples[0])}` : '';
        const retried =
          ((l.clientRetries ?? 0) > 0 ? `, ${l.clientRetries} client-side retries` : '') +
          (l.retries ? `, ${l.retries.attempts} retries after 429/529/503 (${(l.retries.waitMs / 1000).toFixed(1)} s waited)` : '') +
          (l.rateLimit?.limited ? `, ${clean(l.rateLimit.reason ?? '')}` : '');
        if (!tty)
          stream.write(
            `level ${l.load && (l.load.kind !== 'concurrency' || l.sessions) ? clean(l.load.label) : `c=${l.concurrency}`}: ${l.requests} requests, ${l.failed} failed${retried}, ${l.throughputTokS.toFixed(1)} tok/s${mark}${first}\n`,
          );
        break;
      }
      case 'stopped':
        bar?.stop();
        bar = null;
        stream.write(pc.red(`sweep ${e.status}: ${clean(e.reason)}\n`));
        break;
    }
  };
}
