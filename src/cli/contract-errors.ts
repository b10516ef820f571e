/**
 * Contract and workload errors as CLI errors: bad input, exit code 2, one
 * message naming the field or file, nothing written.
 */
import { ContractError } from '../contract/index.js';
import { WorkloadError } from '../workload/index.js';
import { CliError, EXIT } from './exit-codes.js';

/** Runs `f`, turning a ContractError or WorkloadError into a usage CliError. */
export async function asUsageErrors<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof ContractError || err instanceof WorkloadError) throw new CliError(EXIT.usage, err.message);
    throw err;
  }
}
