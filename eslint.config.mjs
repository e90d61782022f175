// One lint config for the whole package, type-aware everywhere (tsconfig.json lists one project per
// environment). The rules that matter most say what may run where: src/core, src/cli, src/mcp and src/shared
// never import 'vscode'; the webviews (media/src) and what they share with the host (src/shared) run in a
// browser, so they import neither Node nor the node-only layers.
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'Plain Node or browser code: adapt it in src/extension.' };

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'out/**',
      'grammars/**',
      'test/fixtures/**',
      'examples/**',
      'bench/work/**',
      'bench/node_modules/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test()/describe()/it() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              package: 'node:test',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after'],
            },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/cli/**/*.ts', 'src/mcp/**/*.ts', 'src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  // Later than the block above, so for src/shared this list (which repeats 'vscode') is the one that applies.
  {
    files: ['media/src/**/*.ts', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            noVscode,
            ...builtinModules.map((name) => ({
              name,
              message: 'Bundled for a webview (a browser): no Node modules here.',
            })),
          ],
          patterns: [
            { group: ['node:*'], message: 'Bundled for a webview (a browser): no Node modules here.' },
            {
              regex: '^(\\.\\./)+(src/)?(extension|core|cli|mcp)(/|$)',
              message:
                'Webview code may import only media/src and src/shared (move what it needs to src/shared).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
        performance: 'readonly',
        document: 'readonly',
        window: 'readonly',
      },
    },
  },
);
