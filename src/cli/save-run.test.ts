/** The hint after a stored run names the store it is in, a database from the environment included. */
import { describe, expect, it } from 'vitest';
import { serveHint } from './save-run.js';

describe('serveHint', () => {
  const t = { command: 'goodput sweep' };
  it('names a database given only by GOODPUT_DATABASE_URL (a --workers run), password redacted', () => {
    expect(serveHint(t, 3, { GOODPUT_DATABASE_URL: 'postgres://bench:secret@db:5432/goodput' })).toBe(
      'see it with: goodput serve --database-url postgres://***:***@db:5432/goodput   (then open http://127.0.0.1:7878/#/runs/3)',
    );
  });
  it('names --data or --database-url as given, and nothing for the default store', () => {
    expect(serveHint({ ...t, data: '/tmp/x' }, 1, { GOODPUT_DATABASE_URL: 'postgres://h/db' })).toContain('goodput serve --data "/tmp/x"');
    expect(serveHint({ ...t, databaseUrl: 'postgres://h/db' }, 1, {})).toContain('goodput serve --database-url postgres://h/db');
    expect(serveHint(t, 1, {})).toBe('see it with: goodput serve   (then open http://127.0.0.1:7878/#/runs/1)');
  });
});
