/** The tool's version, read once from package.json (recorded in every result). */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export const TOOL_VERSION: string = pkg.version;
