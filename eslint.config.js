import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The import boundaries of DESIGN.md: web, server and desktop depend on core; desktop on the
// web admin panel only; core on nothing but zod and papaparse; nobody reaches into another
// package by a relative path.
const otherPackagesByPath = ['core', 'server', 'web', 'desktop', 'fixtures'].map((p) => `**/../${p}/src/**`);
const boundary = (extraPatterns) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        { group: otherPackagesByPath, message: 'Import the workspace package (@everest/…), not its files by a relative path.' },
        ...extraPatterns,
      ],
    },
  ],
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/out/**', '**/.data/**', '**/test-results/**', '**/playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': true, 'ts-nocheck': true, 'ts-expect-error': 'allow-with-description' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: boundary([
      {
        regex: '^(?!zod(/|$)|papaparse$|node:|vitest(/|$)|\\.)',
        message: 'core imports nothing but zod and papaparse (DESIGN.md).',
      },
    ]),
  },
  {
    files: ['fixtures/**/*.ts'],
    rules: boundary([{ group: ['@everest/*'], message: 'fixtures is data: it depends on no other package.' }]),
  },
  {
    files: ['server/**/*.ts'],
    rules: boundary([
      { group: ['@everest/web', '@everest/web/*', '@everest/desktop', '@everest/desktop/*', 'react', 'react-dom'], message: 'The server depends on core only.' },
    ]),
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...boundary([
        { group: ['@everest/server', '@everest/server/*', '@everest/desktop', '@everest/desktop/*', 'koa', '@mikro-orm/*', 'electron'], message: 'The web app depends on core only.' },
      ]),
    },
  },
  {
    files: ['desktop/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...boundary([
        { group: ['@everest/server', '@everest/server/*'], message: 'The desktop app talks to the server over HTTP only.' },
        { regex: '^@everest/web(?!/admin$)', message: 'The desktop app uses the web admin panel (@everest/web/admin) only.' },
      ]),
    },
  },
  {
    files: ['desktop/src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
