import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    {
      // Same as esbuild's text loader in scripts/build.mjs: prompts and tool descriptions are text.
      name: "markdown-as-text",
      transform(code, id) {
        if (id.endsWith(".md")) return { code: `export default ${JSON.stringify(code)};`, map: null };
        return undefined;
      },
    },
  ],
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Test workspaces live in the temp folder: a repository above it (dotfiles in $HOME with
    // TMPDIR inside) must not become their project, for git or for us.
    env: { GIT_CEILING_DIRECTORIES: os.tmpdir() },
    reporters: ["default", "./test/support/skip-reporter.ts"],
  },
});
