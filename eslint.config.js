// Lint rules, including the import rule from DESIGN.md: each folder's index.ts is
// its only door, and core/ (pure) imports nothing internal. Which area may import
// which, and no import circles, are .dependency-cruiser.cjs's (npm run lint runs both).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import depcruise from './.dependency-cruiser.cjs';

/** Every area: the folders under src/ that .dependency-cruiser.cjs places (test-support/ is none). */
const areas = depcruise.forbidden.map((r) => /^(.+)-imports$/.exec(r.name)?.[1]).filter((a) => a !== undefined);

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
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['../*', 'node:*', 'undici', 'fs', 'http', 'net'], message: 'core/ is pure: no I/O and no other area.' }],
        },
      ],
    },
  },
  {
    // Short functions in the sweep and the workers, where long ones grew: a step of its own has a name.
    files: ['src/runner/**/*.ts', 'src/workers/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    files: ['bin/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // depcruise reads a CommonJS config.
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
