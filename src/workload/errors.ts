/**
 * A workload that cannot be built throws a coded WorkloadError whose message
 * names the file, line or field at fault. Nothing is sent or written after one.
 */
export type WorkloadErrorCode = 'unreadable' | 'bad-format' | 'hash-mismatch' | 'tokenizer' | 'length';

export class WorkloadError extends Error {
  constructor(
    readonly code: WorkloadErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WorkloadError';
  }
}
