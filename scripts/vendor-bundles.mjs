// The model SDKs, undici and Turndown (with its HTML parser) as one CommonJS file each in dist/,
// for the start-up snapshot's daemon to require on first use. From node_modules they are
// hundreds of files, several times slower to load and larger in memory than one file each
// (docs/performance.md). Not in the snapshot itself: every daemon would carry their code, and
// most speak one wire and fetch no page.
import path from "node:path";
import { build } from "esbuild";

/** Package → its file in dist/. */
export const VENDOR_FILES = {
  openai: "vendor-openai.cjs",
  "@anthropic-ai/sdk": "vendor-anthropic-sdk.cjs",
  undici: "vendor-undici.cjs",
  turndown: "vendor-turndown.cjs",
  // The terminal chat's UI and its code highlighter: required when the chat starts on a terminal
  // (pi-tui) and at the first code block (emphasize), never by a daemon.
  "@mariozechner/pi-tui": "vendor-pi-tui.cjs",
  emphasize: "vendor-emphasize.cjs",
};

/** What a bundle exports when not the whole package: emphasize with the common grammars only (37 of 190). */
const ENTRY = { emphasize: 'export { createEmphasize, common } from "emphasize";' };

/**
 * pi-tui is ESM and makes a `require` from `import.meta.url` (for a Windows-only addon); in one
 * CommonJS file that URL is the file's own.
 */
const PI_TUI = {
  // Node 20 has RegExp's `v` flag; lowered to `new RegExp(…, "v")` the Unicode sets would be
  // compiled when the module loads (~40 ms) instead of when first matched.
  supported: { "regexp-set-notation": true },
  define: { "import.meta.url": "__vendorFileUrl" },
  banner: { js: 'const __vendorFileUrl = require("node:url").pathToFileURL(__filename).href;' },
};

export async function buildVendorBundles(outdir) {
  await Promise.all(
    Object.entries(VENDOR_FILES).map(([name, file]) =>
      build({
        stdin: {
          contents: ENTRY[name] ?? `module.exports = require(${JSON.stringify(name)});`,
          resolveDir: process.cwd(),
        },
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node20",
        outfile: path.join(outdir, file),
        minifyWhitespace: true,
        minifySyntax: true,
        logLevel: "warning",
        ...(name === "@mariozechner/pi-tui" ? PI_TUI : {}),
      }),
    ),
  );
}
