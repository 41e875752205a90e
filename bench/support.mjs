// Shared by the benchmarks: paths, the scripted model (bundled from the test helper), stats.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = path.join(ROOT, "bin/interpreter.js");

/** A scratch folder, and `startFakeModel` from test/support built into it (node cannot run .ts). */
export async function benchSetup(prefix) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), prefix));
  await build({
    entryPoints: [path.join(ROOT, "test/support/fake-model.ts")],
    outfile: path.join(scratch, "fake-model.mjs"),
    bundle: true,
    format: "esm",
    platform: "node",
    logLevel: "warning",
  });
  const { startFakeModel } = await import(path.join(scratch, "fake-model.mjs"));
  return { scratch, startFakeModel };
}

/** The numeric value after `name` on the command line, or `fallback`. */
export function numberArg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const round = (x) => Math.round(x * 10) / 10;
