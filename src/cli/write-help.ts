/**
 * Build step: renders `goodput --help` (every command) once, into help.txt
 * beside main.js, so the CLI prints it without loading every module.
 */
import { writeFile } from 'node:fs/promises';
import { buildProgram } from './program.js';

const program = await buildProgram(['node', 'goodput', '--help']);
await writeFile(new URL('./help.txt', import.meta.url), program.helpInformation());
