// esbuild plugin for the snapshot bundle: what cannot live in a V8 start-up snapshot (a native
// addon) becomes a stub that `require`s the real package from node_modules the first time it is
// used, at run time. better-sqlite3's JavaScript and pino
// are bundled and evaluated at build time like everything else (requiring them at run time cost
// ~25 ms of module resolution and compilation before `initialize`); only the addon behind
// better-sqlite3's `require("bindings")` is loaded at run time.
// Evaluated at build time means module-level values are the build's: pino's default `base`
// (pid, hostname) is one, which is why createLogger always passes its own `base`.
import { VENDOR_FILES } from "./vendor-bundles.mjs";
export const LAZY_PACKAGES = ["bindings"];

/** A require() rooted at the snapshot blob's folder (dist/), found from node's own flags. */
const REQUIRE_AT_RUN_TIME = `
const { createRequire } = require("node:module");
const runTimeRequire = () => {
  const blob = process.execArgv[process.execArgv.indexOf("--snapshot-blob") + 1];
  return createRequire(require("node:path").resolve(blob));
};
const load = (name) => runTimeRequire()(name);
`;

const STUBS = {
  // better-sqlite3 calls \`require("bindings")("better_sqlite3.node")\` on its first \`new Database\`.
  // bindings finds the package root from the caller's file, which in a snapshot is the (long gone)
  // build file: name the root instead.
  // The addon is where a build from source and prebuild-install put it; \`bindings\` (which also
  // searches Debug and older layouts) is the fallback.
  bindings: `${REQUIRE_AT_RUN_TIME}
module.exports = (name) => {
  const root = require("node:path").dirname(runTimeRequire().resolve("better-sqlite3/package.json"));
  try {
    return runTimeRequire()(require("node:path").join(root, "build", "Release", name));
  } catch (error) {
    if (error.code !== "MODULE_NOT_FOUND") throw error;
    return load("bindings")({ bindings: name, module_root: root });
  }
};`,
};

/**
 * Only reached through `import()`: the MCP SDK (sessions with MCP servers), the model SDKs and
 * undici (the first model request, or the preload after session/new), Turndown (the first web
 * fetch), sharp (a native addon, for the first image a tool reads), pi-tui and emphasize (the
 * terminal chat; pi-tui reads the terminal and makes an `Intl.Segmenter` when its modules are
 * evaluated, which must not happen while the snapshot is built). Required at that moment, from
 * node_modules, instead of adding their code to every daemon's heap.
 */
const RUN_TIME_ONLY =
  /^(@modelcontextprotocol\/sdk\/|openai$|openai\/|@anthropic-ai\/sdk$|@anthropic-ai\/sdk\/|undici$|turndown$|sharp$|@mariozechner\/pi-tui$|emphasize$)/;

export const lazyRequire = {
  name: "lazy-require",
  setup(build) {
    const filter = new RegExp(`^(${LAZY_PACKAGES.join("|")})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "lazy-require" }));
    build.onResolve({ filter: RUN_TIME_ONLY }, (args) => ({ path: args.path, namespace: "run-time" }));
    build.onLoad({ filter: /.*/, namespace: "lazy-require" }, (args) => ({
      contents: STUBS[args.path],
      loader: "js",
    }));
    // The model SDKs come from their one-file bundles next to the blob (vendor-bundles.mjs).
    build.onLoad({ filter: /.*/, namespace: "run-time" }, (args) => ({
      contents: `${REQUIRE_AT_RUN_TIME}\nmodule.exports = load(${JSON.stringify(VENDOR_FILES[args.path] ? `./${VENDOR_FILES[args.path]}` : args.path)});`,
      loader: "js",
    }));
  },
};
