/**
 * A run over several LoRA adapters (--lora) is checked against the server's
 * own model list (bounded where preflight read it) before a request is sent:
 * an adapter it does not list would turn that adapter's share into 404s, and one that belongs to another base
 * model would mix two models' figures under one run. vLLM lists each loaded
 * adapter in `/v1/models` with its base model as `parent`. The API's Start
 * checks the same before it begins a run, so the refusal names its field.
 */
import type { LoraAdapter } from '../core/index.js';
import { preflight } from '../client/index.js';
import { SweepError } from './errors.js';
import { type SweepSpec, targetOf } from './sweep-spec.js';

/** What preflight found of the server's models. */
export interface ServedModels {
  models: readonly string[];
  model: string;
  parents?: ReadonlyMap<string, string>;
}

const shown = (ids: readonly string[]) => (ids.length > 20 ? `${ids.slice(0, 20).join(', ')} and ${ids.length - 20} more` : ids.join(', '));

/**
 * `name` is the setting as its caller names it: the flag, or the API's start body field.
 * @throws SweepError('preflight-refused') naming the first adapter the server does not list, or lists under another base model.
 */
export function checkAdapters(url: string, lora: readonly LoraAdapter[] | null, served: ServedModels, name = '--lora'): void {
  for (const a of lora ?? []) {
    if (!served.models.includes(a.name))
      throw new SweepError(
        'preflight-refused',
        `${name}: adapter "${a.name}" is not listed in the /v1/models of ${url} (it lists ${shown(served.models)}); load it on the server (vLLM: --lora-modules ${a.name}=PATH) or leave it out of ${name}`,
      );
    const parent = served.parents?.get(a.name);
    if (parent !== undefined && parent !== served.model)
      throw new SweepError(
        'preflight-refused',
        `${name}: adapter "${a.name}" is listed with parent "${parent.slice(0, 256)}", not the run's model "${served.model}"; one run measures one base model: name it with --model`,
      );
  }
}

/**
 * The same check before a run is begun (the API's Start, whose refusal then names its field beside the form's):
 * one `GET /v1/models`. A server that does not answer it is left to the sweep's own preflight, which says why.
 * @throws SweepError as checkAdapters.
 */
export async function checkSpecAdapters(spec: SweepSpec, name: string): Promise<void> {
  if (spec.lora === null) return;
  const pre = await preflight(targetOf(spec), spec.model);
  if (!pre.ok) return;
  checkAdapters(spec.url, spec.lora, pre, name);
}
