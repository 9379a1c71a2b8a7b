import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Dependencies point one way (docs/architecture.md): domain <- everyone, apps never import each other,
// and the chat server knows nothing of the product.
const boundaries = {
  'apps/web': [
    '@daohuu/server',
    '@daohuu/chat-server',
    '**/apps/server/**',
    '**/packages/chat-server/**',
  ],
  'apps/server': ['@daohuu/web', '**/apps/web/**'],
  'packages/chat-server': ['@daohuu/web', '@daohuu/server', '**/apps/**'],
  'packages/domain': [
    '@daohuu/web',
    '@daohuu/server',
    '@daohuu/chat-server',
    '**/apps/**',
    'react',
    'node:*',
  ],
};

const packageRules = (dir, patterns) =>
  patterns.map((group) => ({
    group: [group],
    message: `${dir} must not import ${group} (docs/architecture.md).`,
  }));
const chatCore = 'packages/chat-server/src/chat/core';
const chatExtensions = 'packages/chat-server/src/chat/extensions';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/data/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  ...Object.entries(boundaries).map(([dir, patterns]) => ({
    files: [`${dir}/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': ['error', { patterns: packageRules(dir, patterns) }] },
  })),
  // Inside the chat server: the core knows no extension, and an extension knows only the core (and the
  // infrastructure beside it), never another extension. docs/architecture.md explains the extension points.
  {
    files: [`${chatCore}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...packageRules('packages/chat-server', boundaries['packages/chat-server']),
            {
              regex: '/extensions/|/services\\.ts$',
              message: 'The chat core must not depend on an extension or on the composition root.',
            },
          ],
        },
      ],
    },
  },
  {
    files: [`${chatExtensions}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...packageRules('packages/chat-server', boundaries['packages/chat-server']),
            {
              regex: '^\\.\\./(?!\\.\\./)|/extensions/|/services\\.ts$',
              message:
                'A chat extension may depend on the core, never on another extension or on the composition root.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bench/**', 'scripts/**', '.ci/**'],
    rules: { 'no-console': 'off' },
  },
);
