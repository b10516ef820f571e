/**
 * Contract and workload errors as CLI errors: bad input, exit code 2, one
 * message naming the field or file, nothing written.
 */
import { type Contract, ContractError, loadContract } from '../contract/index.js';
import { type ContractLabels, contractLabelRefusals } from '../publish/index.js';
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

/**
 * The contract at `path`, loaded and checked whole before anything is
 * measured: its schema, and its labels (model, precision, quantization,
 * hardware) under the rules a receipt of its runs applies.
 * @throws CliError (exit 2) naming each field and rule
 */
export async function loadCheckedContract(path: string): Promise<Contract> {
  const contract = await asUsageErrors(() => loadContract(path));
  refuseReceiptLabels(path, contract);
  return contract;
}

/** Refuses a contract whose labels a receipt would refuse, naming `where` (its file, or the result it came from). */
export function refuseReceiptLabels(where: string, contract: ContractLabels): void {
  const refused = contractLabelRefusals('', contract);
  if (refused.length === 0) return;
  throw new CliError(
    EXIT.usage,
    [
      `${where}: ${refused.length === 1 ? 'a label' : 'labels'} a receipt of these runs would refuse, so nothing was measured; write ${refused.length === 1 ? 'it' : 'them'} as names:`,
      ...refused.map((r) => `  ${r.message}`),
    ].join('\n'),
  );
}
