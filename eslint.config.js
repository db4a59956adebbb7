// @ts-check
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

// Type-checked rules for what ships (packages/*/src) and for code whose tsconfig covers it; syntax-level
// rules for the rest (tests outside a tsconfig, scripts, config files, plain JavaScript).
const TYPED = ["packages/*/src/**/*.ts", "packages/runtime-tests/test/**/*.ts"];

export default defineConfig(
  { ignores: ["**/dist/**", "**/node_modules/**", "docs/api/**", "coverage/**", "**/*.d.ts", "**/*.d.cts"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: TYPED,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The stream and call plumbing pass caught values (and a caller's throw() argument) through as they are.
      "@typescript-eslint/prefer-promise-reject-errors": ["error", { allowThrowingUnknown: true }],
      // String(x) of a narrowed unknown (typed `{}`) is how server messages and Python-style reprs are
      // printed; the rule cannot tell that from an object. restrict-template-expressions still guards templates.
      "@typescript-eslint/no-base-to-string": "off",
      // A redundant cast changes nothing at run time: shown, not blocking.
      "@typescript-eslint/no-unnecessary-type-assertion": "warn",
    },
  },
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  {
    // Tests may use `any` and `Function` to poke at values; an unused import is shown, not blocking.
    files: ["packages/*/test/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-function-type": "off",
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
    },
  },
  // Code that runs in browsers and workers too.
  {
    files: ["packages/runtime-tests/app/**", "packages/*/apps/**"],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
  },
  {
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
