// Bundles src/ into dist/ (ESM, code-split so lazily imported modules stay out of the start path).
// Pure-JS dependencies are bundled in: one file loads faster than hundreds (about 40 ms less to
// reach `initialize` here). Kept external: the native addons (better-sqlite3; sharp, loaded when a
// tool first looks at an image), and packages loaded only on first
// use (the MCP SDK, the model SDKs and undici). pino is bundled too (~40 ms of CPU less from the plain entry point):
// only its transports run workers from its own files, and the logger uses none.
//
// The new build is written next to dist/ and moved in file by file (each rename is atomic), so a
// daemon started while another test run rebuilds never finds dist/ missing or half-written.
// Chunk names carry a content hash; stale ones are removed once they are a minute old.
import { execFileSync } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { startupSnapshot } from "node:v8";
import { build } from "esbuild";
import { lazyRequire } from "./lazy-require.mjs";
import { escapeNonAscii, SNAPSHOT_BUNDLE, SNAPSHOT_V8_FLAGS } from "./snapshot-bundle.mjs";
import { stripCodeCache } from "./strip-code-cache.mjs";
import { buildVendorBundles } from "./vendor-bundles.mjs";
import { zodEnglish } from "./zod-english.mjs";

const staging = `dist.build-${process.pid}`;
rmSync(staging, { recursive: true, force: true });

await build({
  // spawner.js: the spawn helper (src/tools/exec/spawner/spawner-main.ts), a separate small process.
  entryPoints: [
    { in: "src/cli/main.ts", out: "main" },
    { in: "src/tools/exec/spawner/spawner-main.ts", out: "spawner" },
  ],
  outdir: staging,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: [
    "better-sqlite3",
    "sharp",
    "@modelcontextprotocol/sdk",
    "openai",
    "@anthropic-ai/sdk",
    "undici",
    "turndown",
    "@mariozechner/pi-tui",
    "emphasize",
  ],
  plugins: [zodEnglish],
  sourcemap: "linked",
  logLevel: "warning",
  loader: { ".md": "text" },
  // Bundled CommonJS dependencies call require(); give the ESM output one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});

await buildVendorBundles(staging);

// The start-up snapshot (see src/cli/snapshot-main.ts and bin/interpreter): one CommonJS bundle,
// evaluated once by this node binary and saved as a heap image. A snapshot only loads in the
// exact node binary that wrote it, so the launcher checks `snapshot.node` before using it.
if (startupSnapshot && process.env.INTERPRETER_BUILD_SNAPSHOT !== "0") {
  const { outputFiles } = await build({
    ...SNAPSHOT_BUNDLE,
    entryPoints: ["src/cli/snapshot-main.ts"],
    outfile: path.join(staging, "snapshot.cjs"),
    write: false,
    logLevel: "warning",
    loader: { ".md": "text" },
    plugins: [lazyRequire, zodEnglish],
  });
  writeFileSync(path.join(staging, "snapshot.cjs"), escapeNonAscii(outputFiles[0].text));
  const blob = path.join(staging, "snapshot.blob");
  execFileSync(
    process.execPath,
    [
      "--no-warnings",
      ...SNAPSHOT_V8_FLAGS,
      "--snapshot-blob",
      blob,
      "--build-snapshot",
      path.join(staging, "snapshot.cjs"),
    ],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  withoutCodeCache(blob);
  writeFileSync(path.join(staging, "snapshot.node"), `${realpathSync(process.execPath)}\n`);
}

/** Replaces the blob by one without node's code cache when that one starts (strip-code-cache.mjs). */
function withoutCodeCache(blob) {
  const stripped = stripCodeCache(readFileSync(blob));
  if (!stripped) return keptCodeCache("its layout was not the expected one");
  const candidate = `${blob}.stripped`;
  writeFileSync(candidate, stripped);
  const version = (file) => {
    try {
      return execFileSync(
        process.execPath,
        [...SNAPSHOT_V8_FLAGS, "--snapshot-blob", file, "--", "--version"],
        {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
    } catch {
      return undefined;
    }
  };
  const expected = version(blob);
  if (expected !== undefined && version(candidate) === expected) return renameSync(candidate, blob);
  rmSync(candidate, { force: true });
  keptCodeCache("the blob without it did not start as the one with it");
}

function keptCodeCache(why) {
  process.stderr.write(`build: kept node's code cache in the snapshot: ${why}\n`);
}

mkdirSync("dist", { recursive: true });
const built = new Set(readdirSync(staging));
// Chunks first, entry last: a new main.js must never point at a chunk that is not there yet.
const order = [...built].sort((a, b) => Number(a.startsWith("main.")) - Number(b.startsWith("main.")));
for (const name of order) renameSync(path.join(staging, name), path.join("dist", name));
rmSync(staging, { recursive: true, force: true });
const minuteAgo = Date.now() - 60_000;
for (const name of readdirSync("dist")) {
  const file = path.join("dist", name);
  if (!built.has(name) && statSync(file).mtimeMs < minuteAgo) rmSync(file, { force: true });
}
