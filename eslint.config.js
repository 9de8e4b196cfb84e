// ESLint flat config: typescript-eslint with type information over every TypeScript file, plus
// the layering rule a linter can check: only src/node/ may use Node.js.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'docs/api-reference/',
      'demo-dist/',
      '.gpu/',
      '.gpu-browser-a/',
      '.gpu-browser-b/',
      'bench/results/',
      'bench/dist/',
      'bench/experiments/**/dist/',
      'validate/dist/',
      'demo-pictures/dist/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // vitest fixtures take an empty destructuring pattern when they need no other fixture.
      'no-empty-pattern': 'off',
      // `x == null` is the idiom for null-or-undefined.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    // The library's browser-facing layers must not reach for Node.js.
    files: ['src/**/*.ts'],
    ignores: ['src/node/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*'], message: 'Node.js APIs belong in src/node/.' }] },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
