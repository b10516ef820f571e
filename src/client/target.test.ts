// A target's headers: the key in the header its API reads, the extra headers after it, and every secret
// (the key, a secret-looking header value) scrubbed from any message a server echoes it in.
import { describe, expect, it } from 'vitest';
import { azurePath, resolveTarget } from './target.js';

describe('resolveTarget', () => {
  it('sends the key as Bearer, x-api-key or api-key, then the extra headers', () => {
    const headers = [{ name: 'X-Tenant', value: 'a' }];
    expect(resolveTarget({ baseUrl: 'http://h:1', apiKey: 'k1', headers }).authHeaders).toEqual({ authorization: 'Bearer k1', 'x-tenant': 'a' });
    expect(resolveTarget({ baseUrl: 'http://h:1', apiKey: 'k1', auth: 'x-api-key' }).authHeaders).toEqual({ 'x-api-key': 'k1' });
    expect(resolveTarget({ baseUrl: 'http://h:1', apiKey: 'k1', auth: 'api-key' }).authHeaders).toEqual({ 'api-key': 'k1' });
    expect(resolveTarget({ baseUrl: 'http://h:1', headers }).authHeaders).toEqual({ 'x-tenant': 'a' });
  });

  it('scrubs the key and secret-looking header values from messages, leaves plain values', () => {
    const t = resolveTarget({
      baseUrl: 'http://h:1',
      apiKey: 'sk-key',
      headers: [
        { name: 'X-Gateway-Token', value: 'tok-123' },
        { name: 'X-Tenant', value: 'team-a' },
      ],
    });
    expect(t.redact('bad key sk-key, token tok-123 for team-a')).toBe('bad key [redacted], token [redacted] for team-a');
  });

  it("builds an Azure deployment's path with its api-version, both encoded", () => {
    expect(azurePath('', { azure: { deployment: 'gpt 4o', apiVersion: '2024-10-21' } }, 'chat')).toBe(
      '/openai/deployments/gpt%204o/chat/completions?api-version=2024-10-21',
    );
    expect(azurePath('/p', { azure: { deployment: 'd', apiVersion: 'v' } }, 'completions')).toBe('/p/openai/deployments/d/completions?api-version=v');
  });
});
