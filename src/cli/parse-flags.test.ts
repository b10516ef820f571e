import { describe, expect, it } from 'vitest';
import { parseUrl, redactedCommand } from './parse-flags.js';

describe('redactedCommand', () => {
  it('hides API keys and database passwords in both flag forms', () => {
    const cmd = redactedCommand([
      'goodput', 'sweep', '--api-key', 'sk-live-1', '--database-url', 'postgres://bench:hunter2@db:5432/goodput',
      '--api-key=sk-live-2', '--database-url=postgres://u:pw2@db/x', '--levels', '1,2',
    ]);
    expect(cmd).not.toMatch(/sk-live|hunter2|pw2/);
    expect(cmd).toBe('goodput sweep --api-key *** --database-url postgres://bench:***@db:5432/goodput --api-key=*** --database-url=postgres://u:***@db/x --levels 1,2');
  });
});

describe('parseUrl', () => {
  it('refuses credentials in a server URL, naming the flag', () => {
    expect(() => parseUrl('--url', 'https://me:sk-1@host/v1')).toThrow(/^--url: must not contain a user name or password/);
    expect(() => parseUrl('--url', 'https://host/v1?api_key=sk-1')).toThrow(/^--url: must not carry a secret in its query \(api_key=…\)/);
    expect(parseUrl('--url', 'http://127.0.0.1:8000/')).toBe('http://127.0.0.1:8000');
  });
});
