// Shared by the benchmarks: paths, TypeScript helpers built for node, stats.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The plain entry point (node runs it directly). */
export const BIN = path.join(ROOT, "bin/interpreter.js");
/** The installed command: starts from the V8 snapshot when it matches this node. */
export const LAUNCHER = path.join(ROOT, "bin/interpreter");

/**
 * A scratch folder, and TypeScript modules from the repository built for node (which cannot run
 * .ts): the scripted model from test/support, and the store for preparing large sessions. They
 * are built under node_modules/.cache so their external packages resolve.
 */
export async function benchSetup(prefix) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), prefix));
  const cache = path.join(ROOT, "node_modules/.cache/oi-bench");
  mkdirSync(cache, { recursive: true });
  const modules = {
    fakeModel: path.join(ROOT, "test/support/fake-model.ts"),
    store: path.join(ROOT, "src/store/open-store.ts"),
  };
  await build({
    entryPoints: modules,
    outdir: cache,
    bundle: true,
    format: "esm",
    platform: "node",
    external: ["better-sqlite3"],
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
  });
  const { startFakeModel, replyChunks } = await import(path.join(cache, "fakeModel.mjs"));
  const { openStore } = await import(path.join(cache, "store.mjs"));
  return { scratch, startFakeModel, replyChunks, openStore };
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

export const round = (x) => (x === undefined ? undefined : Math.round(x * 10) / 10);

/** Ends the daemon of a home (the pid in its lock file), if it has one. */
export function stopDaemon(home) {
  const daemon = path.join(home, "daemon");
  const lock = readdirSync(daemon).find((n) => n.endsWith(".pid"));
  if (lock) process.kill(Number(readFileSync(path.join(daemon, lock), "utf8")), "SIGTERM");
}

/** `runs` rounds of every measure, in a new random order each round (so no row always goes first). */
export async function inRandomRounds(runs, measures) {
  for (let i = 0; i < runs; i++) {
    for (const measure of [...measures].sort(() => Math.random() - 0.5)) {
      await measure();
      await sleep(50);
    }
  }
}

/**
 * Writes bench/results/`name`.json (the date, node and CPUs, then `result`, then every sample of
 * `rows`) and prints it without its samples.
 */
export function writeResult(name, result, rows) {
  const full = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}`,
    ...result,
    samples: Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.map(round)])),
  };
  mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(path.join(ROOT, `bench/results/${name}.json`), `${JSON.stringify(full, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify({ ...full, samples: undefined }, null, 2)}\n`);
}
