/**
 * `npm run docs:capabilities`: rewrites docs/capabilities.md from the
 * capability matrix (capabilities-doc.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { CAPABILITIES_DOC, capabilitiesDoc } from './capabilities-doc.js';

const before = await readFile(CAPABILITIES_DOC, 'utf8').catch(() => '');
const after = capabilitiesDoc();
if (after !== before) await writeFile(CAPABILITIES_DOC, after);
process.stdout.write(after === before ? 'docs/capabilities.md: up to date\n' : 'docs/capabilities.md: rewritten\n');
