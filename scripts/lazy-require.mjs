// esbuild plugin for the snapshot bundle: packages that cannot live in a V8 start-up snapshot
// (a native addon, and packages that are large and needed late) become stubs that `require`
// the real package from node_modules the first time they are used, at run time.
export const LAZY_PACKAGES = ["better-sqlite3", "pino", "openai"];

/** A require() rooted at the snapshot blob's folder (dist/), found from node's own flags. */
const REQUIRE_AT_RUN_TIME = `
const { createRequire } = require("node:module");
const load = (name) => {
  const blob = process.execArgv[process.execArgv.indexOf("--snapshot-blob") + 1];
  return createRequire(require("node:path").resolve(blob))(name);
};
`;

const STUBS = {
  // Only ever constructed: \`new Database(file)\`.
  "better-sqlite3": `${REQUIRE_AT_RUN_TIME}
module.exports = function Database(...args) { return new (load("better-sqlite3"))(...args); };`,
  // Called, and read for properties (destination, levels, stdTimeFunctions, multistream).
  pino: `${REQUIRE_AT_RUN_TIME}
module.exports = new Proxy(function pino() {}, {
  apply: (_target, _this, args) => load("pino")(...args),
  get: (_target, key) => load("pino")[key],
});`,
  // Only ever reached through import(), which the bundle turns into a require at that moment.
  openai: `${REQUIRE_AT_RUN_TIME}
module.exports = load("openai");`,
};

export const lazyRequire = {
  name: "lazy-require",
  setup(build) {
    const filter = new RegExp(`^(${LAZY_PACKAGES.join("|")})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: "lazy-require" }));
    build.onLoad({ filter: /.*/, namespace: "lazy-require" }, (args) => ({
      contents: STUBS[args.path],
      loader: "js",
    }));
  },
};
