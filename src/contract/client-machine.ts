/**
 * The machine that ran the client, in words a public page may show: its OS and
 * architecture, CPU count and model, memory and Node version; never its host
 * name or an address. Two sides measured from different machines differ in
 * their client's own overhead, which a receipt states as a limitation.
 */
import { arch, cpus, platform, totalmem } from 'node:os';

/** "linux x64, 8 x AMD EPYC 7B13, 31 GiB, Node 22.11.0": printable ASCII, at most 200 characters. */
export function clientMachine(): string {
  const list = cpus();
  const model = (list[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  const text = `${platform()} ${arch()}, ${list.length} x ${model}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
  return text
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 200);
}
