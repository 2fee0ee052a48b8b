// ESLint: typescript-eslint's recommended rules (syntax only, no type information, so a run over
// the repository stays fast) and the house rules on who may import what:
//   1. The Prisma client and Prisma's types only in repositories and server/db/ (services open
//      transactions through server/db/transaction.ts and hand them on to repositories).
//   2. Transport (routers, REST handlers, tRPC, the bot gateway, the page's routes) calls services,
//      never a repository.
//   3. server/, bot-gateway/, workers/ and common/ never import the page (app/); what both sides
//      need lives in common/.
//   4. sharp and ffmpeg only in workers/media/: the web process and the bot gateway never load them
//      (server code asks for file work through server/media/file-work.ts).
// No import cycles between modules; between server areas, a unit test (tests/unit/house-rules.test.ts).
import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const PRISMA = {
  patterns: [
    { regex: "^@prisma/", message: "Prisma is for repositories (*.repository.ts) and server/db/ only." },
    {
      regex: "(^|/)db/(client|generated|direct-pool)(/|$)",
      message:
        "The database client and Prisma's types are for repositories (*.repository.ts) only; a service opens a transaction with server/db/transaction.ts.",
    },
  ],
};

const MEDIA_TOOLS = [
  {
    regex: "^(sharp|fluent-ffmpeg|@ffmpeg-installer/.*|ffmpeg-static|ffprobe-static)$",
    message: "sharp and ffmpeg run only in workers/media/: ask for the work through server/media/file-work.ts.",
  },
];

const REPOSITORY = {
  patterns: [{ regex: "\\.repository(\\.ts)?$", message: "Transport calls a service, never a repository: add the service function." }],
};

const TRANSPORT = ["**/*.router.ts", "**/*.http.ts", "server/http/**", "server/trpc/**", "bot-gateway/**", "app/**"];
const TESTS = ["**/*.test.ts", "**/*.test.tsx", "tests/**"];

export default defineConfig(
  { ignores: ["build/", "node_modules/", ".data/", "server/db/generated/", "public/", ".cache/", "test-results/", ".scratch/", "tmp/"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node, ...globals.browser } },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed names are kept on purpose (a destructured field left out, a callback's unused argument).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // The sanitizers (file names, redirects, uploaded text) match control characters on purpose.
      "no-control-regex": "off",
      // `catch {}` is how "not JSON, keep the default" reads here.
      "no-empty": ["error", { allowEmptyCatch: true }],
      // A timer declared before the callback that clears it, and set after, stays `let`.
      "prefer-const": ["error", { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    // Test doubles and raw protocol payloads are untyped by nature.
    files: TESTS,
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  // 4. sharp and ffmpeg only in workers/media/, everywhere else (tests and benchmarks included). The
  // blocks below that set no-restricted-imports again carry these patterns too: a later block's
  // options replace an earlier one's.
  {
    files: ["**/*.{js,mjs,cjs,ts,tsx}"],
    ignores: ["workers/media/**"],
    rules: { "no-restricted-imports": ["error", { patterns: MEDIA_TOOLS }] },
  },

  // 1. Prisma stays in repositories and server/db/.
  {
    files: ["server/**/*.ts", "bot-gateway/**/*.ts", "workers/**/*.ts", "common/**/*.ts", "app/**/*.{ts,tsx}"],
    ignores: ["**/*.repository.ts", "server/db/**", ...TESTS],
    rules: {
      "no-restricted-imports": ["error", { patterns: [...PRISMA.patterns, ...MEDIA_TOOLS] }],
      // A service hands its transaction on; only repositories query through it.
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.name='tx']",
          message: "Only repositories query through a transaction: add a repository method and pass `tx` to it.",
        },
      ],
    },
  },

  // workers/media/ may load sharp and ffmpeg, and keeps rule 1.
  {
    files: ["workers/media/**/*.ts"],
    ignores: ["**/*.repository.ts", ...TESTS],
    rules: { "no-restricted-imports": ["error", PRISMA] },
  },

  // 2. Transport never imports a repository (type-only imports too: the types a page or router
  // needs come from the service or the schema).
  {
    files: TRANSPORT.map((glob) => (glob.endsWith(".ts") ? glob : `${glob}/*.{ts,tsx}`)),
    ignores: TESTS,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", REPOSITORY] },
  },

  // Imports resolved as TypeScript does (tsconfig paths: the page's `~/` alias is app/).
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    // No two modules import each other, directly or round a loop: a cycle makes load order matter
    // and ties the modules into one. (Cycles between whole server areas: tests/unit/house-rules.test.ts.)
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },

  // 3. The server side never imports the page.
  {
    files: ["server/**/*.ts", "bot-gateway/**/*.ts", "workers/**/*.ts", "common/**/*.ts"],
    ignores: TESTS,
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./server", "./bot-gateway", "./workers", "./common"],
              from: "./app",
              message: "The server side never imports the page: move what both need to common/.",
            },
          ],
        },
      ],
    },
  },
);
