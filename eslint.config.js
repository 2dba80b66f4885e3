// ESLint (flat config) for the TypeScript sources, their tests and the web app's browser scripts.
//
// TypeScript 7 and typescript-eslint: TypeScript 7 (the Go port) ships `tsc` but no JavaScript compiler
// API yet; typescript-eslint's type-aware rules and madge's --ts-config `require('typescript')` for that API,
// and typescript-eslint 8 supports typescript >=4.8.4 <6.1.0. So package.json installs two compilers side by
// side, the layout Microsoft's compatibility package @typescript/typescript6 is published for (and that the
// TypeScript 7 guides of Nx and ts-jest describe):
//   "typescript":   "npm:@typescript/typescript6@6.0.2"  the TypeScript 6 API (and a `tsc6`), which every
//                                                       tool that imports `typescript` gets: typescript-eslint
//                                                       reads tsconfig.json and type-checks with it;
//   "typescript-7": "npm:typescript@^7.0.2"              the compiler that builds and type-checks the project:
//                                                       `npm run build` / `npm run typecheck` run its tsc.
// Notes: the TypeScript 7 alias is not named `@typescript/native` (the name those guides use), since
// typescript-eslint 8.73 reserves that name for an optional peer, its experimental tsgo backend, which
// needs a TypeScript 7.1 build; installing 7.0 under it is reported as an invalid peer. Both
// @typescript/typescript6's own dependency (typescript 6 as @typescript/old) and typescript-7 ship a `tsc`
// binary, so node_modules/.bin/tsc may be either: the npm scripts name TypeScript 7's by path. madge 8
// declares an optional peer typescript ^5.4.4, which 6.0 fails (npm refuses the tree, ERESOLVE);
// `overrides.madge.typescript: "$typescript"` gives madge and its resolvers the same TypeScript 6 API.
// Type information comes from typescript-eslint's project service (`projectService: true`), which opens
// each linted file in the project of its nearest tsconfig.json (the one the build uses), with
// `tsconfigRootDir` pinning where that search starts.

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tsdoc from 'eslint-plugin-tsdoc';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const TS_FILES = ['{server,shared,workers,scripts,test}/**/*.ts'];

// Arrows point down only: server and workers import shared, never the other way; workers do not
// import server; shared/domain does no I/O (type-only imports of the models are allowed).
const importsOf = (from, dirs) => ({
  regex: `^(\\.\\./)+(${dirs.join('|')})(/|$)`,
  message: `${from} does not import ${dirs.join(' or ')}: arrows point down only.`,
});
// Packages and node built-ins that do I/O (each built-in also under its `node:` name).
const IO_PACKAGES = ['mongoose', 'mongodb', 'ioredis', 'bullmq', 'undici', 'nodemailer', 'smtp-server', 'pino'];
const IO_BUILTINS = ['net', 'http', 'https', 'http2', 'fs', 'fs/promises', 'dgram', 'dns', 'tls', 'child_process'];
const domainIo = {
  paths: [...IO_PACKAGES, ...IO_BUILTINS, ...IO_BUILTINS.map((name) => `node:${name}`)].map((name) => ({
    name,
    message: 'shared/domain does no I/O.',
  })),
  patterns: [
    {
      // The modules of shared that do I/O, relative to shared/domain.
      regex: '^\\.\\./(models|db|queues|services|notify|redis-outages|metrics|metrics-listener|logger|lifecycle|crash)(/|\\.js$)',
      allowTypeImports: true,
      message: 'shared/domain does no I/O: import the models (and the other I/O modules of shared) as types only.',
    },
  ],
};

export default defineConfig([
  globalIgnores(['dist/', 'node_modules/', '.data/', 'coverage/', 'docs/']),
  { name: 'hc/linter-options', linterOptions: { reportUnusedDisableDirectives: 'error' } },

  {
    name: 'hc/typescript',
    files: TS_FILES,
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    plugins: { tsdoc },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      'tsdoc/syntax': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // tsc's noUnusedLocals/noUnusedParameters already report these (and honour the `_` prefix).
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },

  {
    name: 'hc/tests',
    files: ['test/**/*.ts'],
    rules: {
      // Response bodies (supertest's `res.body`), JSON.parse results and the dashboard's untyped browser
      // modules are `any` here by nature, and the test's assertions are what check their shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Stubs stand in for async interfaces, where `async () => value` is the plain way to return a promise.
      '@typescript-eslint/require-await': 'off',
    },
  },

  {
    name: 'hc/layers/shared',
    files: ['shared/**/*.ts'],
    ignores: ['shared/domain/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [importsOf('shared', ['server', 'workers'])] }],
    },
  },
  {
    name: 'hc/layers/shared-domain',
    files: ['shared/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: domainIo.paths, patterns: [importsOf('shared', ['server', 'workers']), ...domainIo.patterns] },
      ],
    },
  },
  {
    name: 'hc/layers/workers',
    files: ['workers/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [importsOf('workers', ['server'])] }],
    },
  },

  {
    name: 'hc/browser-scripts',
    files: ['server/pages/**/static/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  {
    name: 'hc/config-files',
    files: ['*.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
]);
