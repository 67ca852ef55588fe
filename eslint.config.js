/**
 * ESLint (flat config) with typescript-eslint's type-aware rules over src/, test/, bench/, scripts/,
 * bin/ and the root config files. The rules are chosen to catch bugs, not to restyle code: formatting
 * is Prettier's (.prettierrc.json), so no rule here is about layout. Why each rule: docs/development.md
 * "Lint and format".
 */
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-check/**',
      'coverage/**',
      '.tools/**',
      'node_modules/**',
      'bench/results/**',
      'test/fixtures/**',
      'examples/**',
      'helm/**',
    ],
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,js}'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parser: tseslint.parser,
      parserOptions: {
        // One program for every linted file: tsconfig.json plus allowJs, so the JS of bench/ and
        // scripts/ is type-aware too (tsconfig.eslint.json).
        project: ['./tsconfig.eslint.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Promises: a promise nobody awaits loses its rejection (an unhandled rejection ends the process).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
      // Errors: only Error objects carry a stack, a code and a cause (the K8sHealthError family).
      '@typescript-eslint/only-throw-error': 'error',
      // Text: an object interpolated into a message or a key prints "[object Object]".
      '@typescript-eslint/no-base-to-string': 'error',
      // Registries and unions: a switch over a union must handle every member (or say default).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Dead code and imports: unused names, and type-only imports marked as such, so the
      // lazy-import check (test/unit/cli-lazy-imports.test.ts) sees only imports that load a module.
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // any switches the type checker off: every deliberate one says so with an eslint-disable line.
      '@typescript-eslint/no-explicit-any': 'error',
      // Comparisons: == only against null (both null and undefined), never between values.
      eqeqeq: ['error', 'smart'],
      // Control characters in regexes are deliberate here: src/text/ strips them from untrusted text.
      'no-control-regex': 'off',
      // Width: Prettier wraps code at 120 and never breaks a string; a comment (which Prettier leaves as
      // it is) or code over 120 is an error. Strings, templates, regexes and URLs may run longer: a
      // message split across lines can no longer be found with grep.
      'max-len': [
        'error',
        {
          code: 120,
          tabWidth: 2,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
        },
      ],
    },
  },
  {
    // TypeScript itself reports undefined names (and knows types and globals ESLint does not).
    files: ['**/*.ts'],
    rules: { 'no-undef': 'off' },
  },
  {
    // The sandbox page runs in the browser.
    files: ['src/sandbox/page/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
