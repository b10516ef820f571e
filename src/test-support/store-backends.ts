/**
 * The two store back ends for contract tests, so one suite runs on both
 * (STYLE rule 5): PGlite in memory, and a real PostgreSQL started for the file.
 */
import { type Store, openPgDriver, openPgliteDriver, storeOnDriver } from '../store/index.js';
import { type TestPostgres, startTestPostgres } from './postgres.js';

export interface Backend {
  name: 'pglite' | 'postgres';
  /** A fresh, migrated, empty store. */
  open(): Promise<Store>;
  /** Stops what `open` needed (the PostgreSQL server). */
  teardown(): void;
}

export function pgliteBackend(): Backend {
  return { name: 'pglite', open: async () => storeOnDriver(await openPgliteDriver(), 'PGlite in memory'), teardown: () => {} };
}

export function postgresBackend(): Backend {
  let pg: TestPostgres | null = null;
  return {
    name: 'postgres',
    async open() {
      pg ??= await startTestPostgres();
      return storeOnDriver(await openPgDriver(await pg.createDatabase()), 'test PostgreSQL');
    },
    teardown: () => pg?.stop(),
  };
}

/** Both back ends, in the order the contract suites loop over them. */
export const backends = (): Backend[] => [pgliteBackend(), postgresBackend()];
