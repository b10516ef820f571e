/**
 * `npm run docs:cli`: rewrites the flag table of docs/cli.md from the option
 * catalogue, between its markers. A test fails when the file and the catalogue
 * disagree, so the table is never edited by hand.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { cliFlagTable, withFlagTable } from './option-flags.js';

const path = new URL('../../docs/cli.md', import.meta.url);
const before = await readFile(path, 'utf8');
const after = withFlagTable(before, cliFlagTable());
if (after !== before) await writeFile(path, after);
process.stdout.write(after === before ? 'docs/cli.md: flag table up to date\n' : 'docs/cli.md: flag table rewritten\n');
