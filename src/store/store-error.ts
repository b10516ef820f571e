/**
 * A store operation that cannot be done throws a coded StoreError with a
 * sentence a user can act on. The API maps codes to HTTP statuses and the CLI
 * to exit codes, each in one place.
 */
export type StoreErrorCode =
  /** No such server or run. */
  | 'not-found'
  /** A server with that name exists already. */
  | 'duplicate'
  /** Another run against the same server is in progress: levels must not contend. */
  | 'run-in-progress'
  /** The run has no result to export (running or interrupted). */
  | 'not-exportable'
  /** The embedded database is held by another process. */
  | 'busy'
  /** A value that cannot be stored; `field` names it. */
  | 'bad-input'
  /** A stored row that breaks its schema (edited by hand, or by another program); `field` names what. */
  | 'corrupt';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}
