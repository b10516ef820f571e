/**
 * The capability matrix read from the run-kind table: a kind's cell for a
 * surface, the reason a surface gives when it refuses a kind (the surfaces
 * take their words from here, so what they say is what the matrix says), and
 * the matrix as the Markdown table docs/capabilities.md is generated from.
 */
import { type Capability, type RefusalWords, SURFACES, type SurfaceName, fillRefusal } from './capabilities.js';
import { RUN_KINDS, RUN_KIND_NAMES, type RunKindName } from './run-kinds.js';

/** Kind `kind`'s cell for `surface`. */
export function capabilityOf(kind: RunKindName, surface: SurfaceName): Capability {
  return RUN_KINDS[kind].capabilities[surface];
}

/**
 * The reason `surface` gives for refusing a run of kind `kind`, placeholders
 * filled with `words`.
 * @throws Error when the matrix says the surface serves the kind: a surface
 * refusing what the matrix says works is a bug, not a message for a user.
 */
export function refusalOf(kind: RunKindName, surface: SurfaceName, words: RefusalWords = {}): string {
  const cell = capabilityOf(kind, surface);
  if ('works' in cell) throw new Error(`the capability matrix says ${surface} serves ${kind} runs (${cell.works}), yet it refused one`);
  return fillRefusal(cell.refused, words);
}

/** Whether `surface` serves runs of kind `kind`. */
export function serves(kind: RunKindName, surface: SurfaceName): boolean {
  return 'works' in capabilityOf(kind, surface);
}

const escape = (text: string) => text.replaceAll('|', '\\|');

/** The matrix as a Markdown table: a row per surface, a column per kind. */
export function capabilityTable(): string {
  const head = `| surface | ${RUN_KIND_NAMES.map((k) => `${k} (${RUN_KINDS[k].label})`).join(' | ')} |`;
  const rule = `| --- | ${RUN_KIND_NAMES.map(() => '---').join(' | ')} |`;
  const rows = (Object.keys(SURFACES) as SurfaceName[]).map((s) => {
    const cells = RUN_KIND_NAMES.map((k) => {
      const cell = capabilityOf(k, s);
      return 'works' in cell ? `works (\`src/${cell.works}\`)` : `refused: ${escape(cell.refused)}`;
    });
    return `| ${escape(SURFACES[s])} | ${cells.join(' | ')} |`;
  });
  return [head, rule, ...rows].join('\n');
}
