/**
 * Azure OpenAI's deployment paths: `POST /openai/deployments/{deployment}/chat/completions?api-version=…`
 * (and `/completions`) are the chat and completions endpoints, on the same schedule. A deployment serves one
 * model, so the simulator's deployment is named after its model; another name is Azure's 404, and a request
 * without `api-version` is refused as Azure refuses it.
 */

/** What an Azure path means: a generation endpoint, a refusal, or (null) not an Azure path. */
export type AzureRoute = { ok: true; endpoint: 'chat' | 'completion' } | { ok: false; status: number; message: string; param: string | null } | null;

const PATH = /^\/openai\/deployments\/([^/?#]+)\/(chat\/completions|completions)$/;

/** The route of `url` (path and query) for the simulator serving `model`. */
export function azureRoute(model: string, method: string, url: string): AzureRoute {
  const q = url.indexOf('?');
  const match = PATH.exec(q < 0 ? url : url.slice(0, q));
  if (match === null || method !== 'POST') return null;
  const version = new URLSearchParams(q < 0 ? '' : url.slice(q + 1)).get('api-version');
  if (version === null || version === '') return { ok: false, status: 400, message: 'Missing required query parameter: api-version', param: 'api-version' };
  let deployment: string;
  try {
    deployment = decodeURIComponent(match[1] as string);
  } catch {
    deployment = match[1] as string;
  }
  if (deployment !== model)
    return {
      ok: false,
      status: 404,
      message: `The API deployment ${deployment.slice(0, 80)} for this resource does not exist (this simulator's deployment is ${model})`,
      param: null,
    };
  return { ok: true, endpoint: match[2] === 'completions' ? 'completion' : 'chat' };
}
