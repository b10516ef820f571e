/**
 * The import rules of DESIGN.md "Architecture", checked by `npm run lint`
 * (`depcruise src`): no import circles (type-only and lazy imports count too),
 * and data flowing one way between areas. AREA_IMPORTS is the one table of
 * which area's code may import which other area; eslint.config.js keeps each
 * area's index.ts its only door.
 */
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

/**
 * The other areas each area's own code may import (its tests and test-support/
 * are not bound: they drive the area from outside). Data flows workload →
 * runner → client → records → metrics → cards and receipts; the store is
 * underneath, the CLI, the API and the page on top; core is pure and imports
 * no area. The lists are what the tree does, which follows that direction.
 */
const AREA_IMPORTS = {
  core: [],
  files: [],
  client: ['core'],
  workload: ['core', 'files', 'client'],
  telemetry: ['core', 'client'],
  runner: ['core', 'client', 'workload', 'telemetry'],
  contract: ['core', 'files', 'client', 'workload', 'runner'],
  quality: ['core', 'client', 'contract'],
  store: ['core'],
  runs: ['core', 'files', 'client', 'runner', 'store'],
  workers: ['core', 'client', 'workload', 'runner', 'store'],
  api: ['core', 'client', 'runner', 'store', 'runs'],
  web: ['core', 'api', 'store', 'runs'],
  publish: ['core', 'files', 'workload', 'runner', 'contract', 'web'],
  sim: ['core'],
  cli: ['core', 'files', 'client', 'workload', 'telemetry', 'runner', 'contract', 'quality', 'store', 'runs', 'workers', 'api', 'web', 'publish', 'sim'],
  bench: ['core', 'client', 'workload', 'runner', 'sim', 'test-support'],
};

/** Folders under src/ that are no area: helpers for tests (and the bench), bound by no direction. */
const NOT_AREAS = ['test-support'];

const TESTS = '[.]test[.]tsx?$';

// A new folder under src/ must say where it sits before anything passes.
const unlisted = readdirSync(join(__dirname, 'src'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && !NOT_AREAS.includes(d.name) && !(d.name in AREA_IMPORTS))
  .map((d) => d.name);
if (unlisted.length > 0) throw new Error(`.dependency-cruiser.cjs: add ${unlisted.join(', ')} to AREA_IMPORTS (the areas it may import)`);

const areaRules = Object.entries(AREA_IMPORTS).map(([area, may]) => ({
  name: `${area}-imports`,
  comment: `${area}/ may import ${may.length === 0 ? 'no other area' : may.join(', ')}: data flows one way (DESIGN.md "Architecture")`,
  severity: 'error',
  from: { path: `^src/${area}/`, pathNot: TESTS },
  to: { path: '^src/[^/]+/', pathNot: `^src/(${[area, ...may].join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: move what both sides share to where it belongs (a lazy import does not break it).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...areaRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // A circle of types is still a circle: type-only imports count.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
