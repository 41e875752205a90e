#!/usr/bin/env node
// `npm run soak`: the reliability suite (test/reliability/) with the big numbers: 200 kill -9s,
// a million fuzzed lines. The tests write their figures to bench/results/reliability-*.json
// (only because RELIABILITY_FIGURES_DIR is set here; a plain `npm test` writes nothing), and
// this script gathers them, with each test file's outcome and duration, into
// bench/results/soak.json. Any extra arguments go to vitest (e.g. a file filter).
//
//   node scripts/soak.mjs [vitest args...]
//   CRASH_RUNS=500 node scripts/soak.mjs test/reliability/crash-durability.test.ts
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RESULTS = path.join(ROOT, "bench", "results");
const scratch = mkdtempSync(path.join(os.tmpdir(), "oi-soak-"));
const report = path.join(scratch, "vitest.json");

const settings = {
  CRASH_RUNS: process.env.CRASH_RUNS ?? "200",
  FUZZ_LINES: process.env.FUZZ_LINES ?? "1000000",
  LOAD_SESSIONS: process.env.LOAD_SESSIONS ?? "50",
};
mkdirSync(RESULTS, { recursive: true });
// Figures of an earlier soak must not pass for this one's.
for (const name of readdirSync(RESULTS)) {
  if (/^reliability-.*\.json$/.test(name)) rmSync(path.join(RESULTS, name));
}

const args = process.argv.slice(2);
const started = Date.now();
const vitest = spawnSync(
  process.execPath,
  [
    path.join(ROOT, "node_modules", "vitest", "vitest.mjs"),
    "run",
    ...(args.length > 0 ? args : ["test/reliability/"]),
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${report}`,
    // The soak numbers run long: no per-test limit below an hour unless a test sets its own.
    "--testTimeout=3600000",
    "--hookTimeout=600000",
  ],
  {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, ...settings, RELIABILITY_FIGURES_DIR: RESULTS },
  },
);
const durationMs = Date.now() - started;

const files = [];
try {
  const json = JSON.parse(readFileSync(report, "utf8"));
  for (const file of json.testResults ?? []) {
    const tests = file.assertionResults ?? [];
    files.push({
      file: path.relative(ROOT, file.name),
      status: file.status,
      durationMs: Math.round((file.endTime ?? 0) - (file.startTime ?? 0)),
      tests: tests.length,
      failed: tests.filter((t) => t.status === "failed").map((t) => t.fullName),
    });
  }
} catch (error) {
  files.push({ error: `no vitest report: ${error.message}` });
}

const figures = {};
for (const name of readdirSync(RESULTS).sort()) {
  const match = /^reliability-(.*)\.json$/.exec(name);
  if (match) figures[match[1]] = JSON.parse(readFileSync(path.join(RESULTS, name), "utf8"));
}

const passed = vitest.status === 0;
const soak = {
  measuredAt: new Date(started).toISOString(),
  passed,
  durationMs,
  settings,
  machine: {
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100),
  },
  files,
  figures,
};
writeFileSync(path.join(RESULTS, "soak.json"), `${JSON.stringify(soak, null, 2)}\n`);
rmSync(scratch, { recursive: true, force: true });
process.stderr.write(
  `soak ${passed ? "passed" : "FAILED"} in ${Math.round(durationMs / 1000)} s; figures in bench/results/soak.json\n`,
);
process.exit(vitest.status ?? 1);
