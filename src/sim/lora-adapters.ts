/**
 * LoRA adapters the simulator serves beside its model, as vLLM serves them:
 * each listed in `/v1/models` with the model as its `parent` (and no context
 * length of its own, as vLLM's adapter cards have none), and a request that
 * names one generates with it, each decode step slower by the adapter's own
 * `decodeExtraMs`, so a run over several adapters sees their figures differ.
 */
import type { SimProfile } from './profile-schema.js';

/** How a served model generates: the decode time it adds to every step, ms. */
export interface ServedModel {
  decodeExtraMs: number;
}

const BASE: ServedModel = { decodeExtraMs: 0 };

/** The model or adapter `name` names, or null when the simulator serves no such model. */
export function servedModel(profile: SimProfile, name: unknown): ServedModel | null {
  if (name === profile.model) return BASE;
  return profile.loraAdapters.find((a) => a.name === name) ?? null;
}

/** The adapters' `/v1/models` entries, after the model's own. */
export function adapterCards(profile: SimProfile): object[] {
  return profile.loraAdapters.map((a) => ({
    id: a.name,
    object: 'model',
    created: 0,
    owned_by: 'goodput-sim',
    root: a.name,
    parent: profile.model,
    max_model_len: null,
  }));
}
