// Lint rules, including the import rule from DESIGN.md: each folder's index.ts is
// its only door, and core/ (pure) imports nothing internal.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const areas = ['core', 'files', 'client', 'workload', 'contract', 'runner', 'telemetry', 'store', 'runs', 'api', 'web', 'publish', 'quality', 'sim', 'cli', 'bench'];

/** Another area's internals may not be imported: only `../<area>/index.js`. */
const throughIndexOnly = areas.map((area) => ({
  group: [`../${area}/*`, `!../${area}/index.js`],
  message: `Import ${area}/ only through ../${area}/index.js`,
}));

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: throughIndexOnly }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['../*', 'node:*', 'undici', 'fs', 'http', 'net'], message: 'core/ is pure: no I/O and no other area.' }],
      }],
    },
  },
  {
    files: ['bin/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
