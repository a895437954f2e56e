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


export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'coverage', 'e2e-artifacts'] },
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
    ignores: ['src/features/*/api/query-keys.ts', ...notInTests],
    rules: { 'no-restricted-syntax': ['error', ...queryKeyLiterals] },
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
