import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Query keys come only from features/<f>/api/query-keys.ts (the convention is written at the top
// of features/jobs/api/query-keys.ts): no array literal as a key anywhere else.
const KEY_MESSAGE = 'Take query keys from a <feature>Keys object in features/<f>/api/query-keys.ts.';
const queryKeyLiterals = [
  { selector: "Property[key.name='queryKey'] > ArrayExpression", message: KEY_MESSAGE },
  { selector: "Property[key.name='queryKey'] > TSAsExpression > ArrayExpression", message: KEY_MESSAGE },
  { selector: "Property[key.name='invalidate'] > ArrayExpression > ArrayExpression", message: KEY_MESSAGE },
  {
    selector: "CallExpression[callee.property.name=/^(getQueryData|setQueryData|getQueryState|setQueriesData)$/] > ArrayExpression.arguments",
    message: KEY_MESSAGE,
  },
  { selector: 'VariableDeclarator[id.name=/(Key|Keys)$/] > ArrayExpression', message: KEY_MESSAGE },
  { selector: 'VariableDeclarator[id.name=/(Key|Keys)$/] > TSAsExpression > ArrayExpression', message: KEY_MESSAGE },
];
const notInTests = ['**/*.test.{ts,tsx}', 'src/testing/**'];

// Route files compose: queries, mutations, http calls, forms and schemas live in features/<f>.
const ROUTE_MESSAGE = 'Route files compose; put queries and mutations in features/<f>/api, forms and schemas in features/<f>/components.';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage', 'e2e-artifacts', 'src/types/openapi.gen.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
    languageOptions: {
      ecmaVersion: 2023,
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/features/*/api/query-keys.ts', 'src/app/routes/**', ...notInTests],
    rules: { 'no-restricted-syntax': ['error', ...queryKeyLiterals] },
  },
  {
    files: ['src/app/routes/**/*.{ts,tsx}'],
    ignores: notInTests,
    rules: {
      'no-restricted-syntax': [
        'error',
        ...queryKeyLiterals,
        { selector: "CallExpression[callee.name='fetch']", message: ROUTE_MESSAGE },
        { selector: "CallExpression[callee.object.name='window'][callee.property.name='fetch']", message: ROUTE_MESSAGE },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tanstack/react-query',
              importNames: [
                'useMutation',
                'useQuery',
                'useQueries',
                'useSuspenseQuery',
                'useInfiniteQuery',
                'useQueryClient',
                'queryOptions',
              ],
              message: ROUTE_MESSAGE,
            },
            // The error helpers (ApiError, serverMessageOr, errorMessage) stay allowed, for toasts.
            {
              name: '@/lib/api-client',
              importNames: ['api', 'buildUrl', 'errorFromResponse', 'nullOn401', 'toPage'],
              message: ROUTE_MESSAGE,
            },
            { name: 'zod', message: ROUTE_MESSAGE },
            { name: 'react-hook-form', message: ROUTE_MESSAGE },
            { name: '@hookform/resolvers/zod', message: ROUTE_MESSAGE },
          ],
          patterns: [
            {
              group: ['**/lib/api-client'],
              importNames: ['api', 'buildUrl', 'errorFromResponse', 'nullOn401', 'toPage'],
              message: ROUTE_MESSAGE,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: globals.node,
    },
  },
);
