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
};

export async function buildVendorBundles(outdir) {
  await Promise.all(
    Object.entries(VENDOR_FILES).map(([name, file]) =>
      build({
        stdin: { contents: `module.exports = require(${JSON.stringify(name)});`, resolveDir: process.cwd() },
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node20",
        outfile: path.join(outdir, file),
        minifyWhitespace: true,
        minifySyntax: true,
        logLevel: "warning",
      }),
    ),
  );
}
