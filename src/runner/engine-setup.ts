/**
 * The engine side of a run: the dialect to speak (detected from cheap GETs, or
 * the spec's `engine` override, checked against detection), its version and
 * evidence, and the run warnings that follow from it (cannot force the length,
 * cannot turn thinking off, engine notes, an override that contradicts detection),
 * and the context length the engine reports, read from the same answers.
 */
import type { Warning } from '../core/index.js';
import { type Dialect, type DialectSettings, type EngineChoice, type ProbeEvidence, type Target, detectEngine, dialects } from '../client/index.js';

/** What the run speaks and records. */
export interface EngineSetup {
  dialect: Dialect;
  version: string | null;
  source: 'detected' | 'override';
  evidence: string[];
  warnings: Warning[];
  /** The context length the server reports for the model (prompt plus output, tokens) and where it was read; null when it says nothing. */
  context: { tokens: number; source: string } | null;
}

function contextOf(dialect: Dialect, replies: ProbeEvidence, model: string): EngineSetup['context'] {
  const tokens = dialect.context?.read(replies, model) ?? null;
  return tokens === null || dialect.context === null ? null : { tokens, source: dialect.context.source };
}

/**
 * Detects the engine at `target` (GETs only, bounded) and settles the dialect.
 * With an override, detection still supplies the version when it agrees, and a
 * warning when it names another engine.
 */
export async function resolveEngine(target: Target, choice: EngineChoice, settings: DialectSettings): Promise<EngineSetup> {
  const found = await detectEngine(target);
  if (choice === 'auto') {
    return {
      dialect: found.dialect,
      version: found.version,
      source: 'detected',
      evidence: found.evidence,
      warnings: found.dialect.warnings(settings),
      context: contextOf(found.dialect, found.replies, settings.model),
    };
  }
  const dialect = dialects[choice];
  const agrees = found.dialect.engine === dialect.engine;
  const warnings: Warning[] = dialect.warnings(settings);
  if (!agrees && found.dialect.engine !== 'generic') {
    warnings.unshift({
      code: 'engine-mismatch',
      message: `engine ${choice} was given, but the server looks like ${found.dialect.label} (${found.evidence.join('; ')}); requests follow the ${dialect.label} dialect as asked`,
    });
  }
  return {
    dialect,
    version: agrees ? found.version : null,
    source: 'override',
    evidence: agrees ? found.evidence : [],
    warnings,
    context: contextOf(dialect, found.replies, settings.model),
  };
}
