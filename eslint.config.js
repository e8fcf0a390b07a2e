import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The import boundaries of DESIGN.md: web, server and desktop depend on core; desktop on the
// web admin panel only; core on nothing but zod and papaparse; nobody reaches into another
// package by a relative path.
const packageFolders = ['src', 'test', 'bench', 'drills', 'e2e', 'scripts'];
const otherPackagesByPath = ['core', 'server', 'web', 'desktop', 'fixtures'].flatMap((p) => packageFolders.map((f) => `**/../${p}/${f}/**`));
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

// The layers of the web app (bulletproof-react): shared code (components, lib, hooks) → features
// → app, never sideways. A feature may not import another feature, shared code may not import a
// feature or the app, and a feature may not import the app. Every relative import is resolved to
// the folder it reaches, whatever its depth, including dynamic import() (the app's lazy chunks),
// which no-restricted-imports does not see. Lift what two features share into components/, lib/
// or hooks/ (or core), or merge what is really one feature.
// The React Compiler is not used here: its note that it would skip TanStack Table's hooks is
// about a build step we do not run.
const noCompilerNotes = { 'react-hooks/incompatible-library': 'off' };

const webSrc = path.join(path.dirname(fileURLToPath(import.meta.url)), 'web', 'src');
const sharedFolders = ['components', 'lib', 'hooks'];

/** The layer of web/src a file is in ('lib', 'features/home', 'app'), or null outside them. */
function webLayer(file) {
  const [top, name, ...rest] = path.relative(webSrc, file).split(path.sep);
  if (sharedFolders.includes(top)) return { kind: 'shared', name: top };
  if (top === 'features' && name && rest.length > 0) return { kind: 'feature', name: `features/${name}` };
  if (top === 'app') return { kind: 'app', name: 'app' };
  return null;
}

/** The app may import anything; a feature or shared code only itself and shared code. */
function mayImport(from, to) {
  if (!from || !to || from.name === to.name || from.kind === 'app') return true;
  return to.kind === 'shared';
}

const webLayers = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      sideways:
        '{{from}} may not import {{to}}: imports flow shared (components, lib, hooks) → features → app, never sideways or back.',
    },
  },
  create(context) {
    const from = webLayer(context.filename);
    const check = (source) => {
      if (!from || source?.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = webLayer(path.resolve(path.dirname(context.filename), source.value));
      if (!mayImport(from, to)) context.report({ node: source, messageId: 'sideways', data: { from: from.name, to: to.name } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

const desktopPatterns = [
  { group: ['@everest/server', '@everest/server/*'], message: 'The desktop app talks to the server over HTTP only.' },
  // …the web's zod-without-eval, which its renderer's entry must import first, as the web's does, and
  // the PDF reader, which reads K-1s in the desktop's Node as it does in the browser's worker.
  {
    regex: '^@everest/web(?!/(admin|zod-without-eval|pdf)$)',
    message: 'The desktop app uses the web admin panel (@everest/web/admin) and its PDF reader (@everest/web/pdf) only.',
  },
];
// Tests, benches and end-to-end suites take the server's test tooling as @everest/server/testing
// and @everest/server/bench (source subpaths), and nothing else of the server.
const serverTesting = {
  regex: '^@everest/server(?!/(testing|bench)(/|$))',
  message: 'Tests import the server only as @everest/server/testing or @everest/server/bench.',
};
const noElectron =
  'A main-process service, the sync and its CLI import nothing from electron; the glue files in desktop/src/main pass them what they need.';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/dist-ssr/**', '**/out/**', '**/.data/**', '**/test-results/**', '**/playwright-report/**'] },
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
    // Its tests may also use fast-check (a development dependency) for property-based tests.
    files: ['core/**/*.test.ts'],
    rules: boundary([
      {
        regex: '^(?!zod(/|$)|papaparse$|node:|vitest(/|$)|fast-check$|\\.)',
        message: 'core imports nothing but zod and papaparse (DESIGN.md); its tests also vitest and fast-check.',
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
    plugins: { 'react-hooks': reactHooks, everest: { rules: { 'web-layers': webLayers } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...noCompilerNotes,
      ...boundary([
        { group: ['@everest/server', '@everest/server/*', '@everest/desktop', '@everest/desktop/*', 'koa', '@mikro-orm/*', 'electron'], message: 'The web app depends on core only.' },
      ]),
      'everest/web-layers': 'error',
    },
  },
  {
    files: ['desktop/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...noCompilerNotes,
      ...boundary(desktopPatterns),
    },
  },
  {
    // The main process's services (every folder below desktop/src/main), the sync engine and its
    // headless command are plain modules that run and are tested under Node: only the glue files
    // directly in desktop/src/main (and the preload) touch Electron (DESIGN.md, desktop rules).
    files: ['desktop/src/main/*/**/*.{ts,tsx}', 'desktop/src/sync/**/*.ts', 'desktop/src/cli/**/*.ts'],
    rules: {
      ...boundary([...desktopPatterns, { group: ['electron', 'electron/*'], message: noElectron }]),
      'no-restricted-syntax': [
        'error',
        { selector: "ImportExpression[source.value=/^electron(\\/|$)/]", message: noElectron },
        { selector: "CallExpression[callee.name='require'][arguments.0.value=/^electron(\\/|$)/]", message: noElectron },
      ],
    },
  },
  {
    files: ['desktop/src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The web app's end-to-end suites and benches reach the server's test and bench tooling through its package face.
    files: ['web/e2e/**/*.ts', 'web/bench/**/*.ts'],
    rules: boundary([
      serverTesting,
      { group: ['@everest/desktop', '@everest/desktop/*', 'koa', '@mikro-orm/*', 'electron'], message: 'The web app depends on core only.' },
    ]),
  },
  {
    // The desktop app's tests, benches and end-to-end suites: as the app, plus the server's test tooling.
    files: ['desktop/**/*.test.ts', 'desktop/test/**/*.ts', 'desktop/bench/**/*.ts', 'desktop/e2e/**/*.ts'],
    rules: boundary([serverTesting, desktopPatterns[1]]),
  },
  {
    files: ['desktop/src/main/*/**/*.test.ts', 'desktop/src/sync/**/*.test.ts', 'desktop/src/cli/**/*.test.ts'],
    rules: boundary([serverTesting, desktopPatterns[1], { group: ['electron', 'electron/*'], message: noElectron }]),
  },
);
