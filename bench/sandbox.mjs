// Sandbox overhead per command: the median of 100 runs of `true` through the exec port, without
// the sandbox (full-access) and inside bubblewrap (workspace-write), in an empty workspace and in
// this repository (whose `.git` scan is part of the cost). Writes bench/results/sandbox.json.
// Usage: node bench/sandbox.mjs [--runs 100]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const runsArg = process.argv.indexOf("--runs");
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 100;

const scratch = mkdtempSync(path.join(os.tmpdir(), "oi-bench-sandbox-"));
await build({
  stdin: {
    contents: `export { createSandboxedExec } from "./src/tools/sandbox/sandboxed-exec.ts";
export { buildChildEnv } from "./src/tools/exec/child-env.ts";`,
    resolveDir: ROOT,
    loader: "ts",
  },
  outfile: path.join(scratch, "sandbox.mjs"),
  bundle: true,
  format: "esm",
  platform: "node",
  logLevel: "warning",
});
const { createSandboxedExec, buildChildEnv } = await import(path.join(scratch, "sandbox.mjs"));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const round = (x) => Math.round(x * 100) / 100;

const sandbox = createSandboxedExec({ env: buildChildEnv(process.env), whenUnavailable: "refuse" });
// The same sandbox with a confined helper per sandbox, running the dist/spawner.js of `npm ci`
// (started by this process, as the daemon starts it).
const helped = createSandboxedExec({
  env: buildChildEnv(process.env),
  whenUnavailable: "refuse",
  perSessionHelper: true,
  helperScript: path.join(ROOT, "dist/spawner.js"),
});
const status = await sandbox.status();
if (!status.available) {
  console.error(`sandbox unavailable: ${status.reason}`);
  process.exit(1);
}

const emptyWorkspace = path.join(scratch, "ws");
mkdirSync(emptyWorkspace);

const cases = {
  unconfined: { policy: { mode: "full-access", roots: [emptyWorkspace] }, cwd: emptyWorkspace },
  bwrap: { policy: { mode: "workspace-write", roots: [emptyWorkspace] }, cwd: emptyWorkspace },
  bwrapInThisRepository: { policy: { mode: "workspace-write", roots: [ROOT] }, cwd: ROOT },
  helper: { policy: { mode: "workspace-write", roots: [emptyWorkspace] }, cwd: emptyWorkspace, via: helped },
  helperInThisRepository: { policy: { mode: "workspace-write", roots: [ROOT] }, cwd: ROOT, via: helped },
};
// Interleaved, so a burst of other work on the machine hits every case alike.
const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let i = 0; i < RUNS + 5; i++) {
  for (const [name, { policy, cwd, via = sandbox }] of Object.entries(cases)) {
    const start = performance.now();
    const result = await via
      .exec({ ...policy, session: name })
      .run({ command: "true", cwd, timeoutMs: 10_000, signal: new AbortController().signal });
    const ms = performance.now() - start;
    if (result.exitCode !== 0) throw new Error(`${name} failed: ${result.output}`);
    if (i >= 5) times[name].push(ms); // the first few warm caches
  }
}
const figures = Object.fromEntries(
  Object.entries(times).map(([name, xs]) => [
    name,
    { medianMs: round(median(xs)), p90Ms: round(percentile(xs, 0.9)), runs: xs.length },
  ]),
);
sandbox.dispose();
helped.dispose();
rmSync(scratch, { recursive: true, force: true });

const report = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${os.release()} ${process.arch}`,
  cpus: os.cpus().length,
  // Other work on the machine inflates every figure; compare runs taken at similar load.
  loadAverage1m: round(os.loadavg()[0]),
  uid: process.getuid?.(),
  bubblewrap: status.version,
  command: "true (via /bin/bash -c, through the exec port)",
  cases: figures,
  overheadMedianMs: round(figures.bwrap.medianMs - figures.unconfined.medianMs),
  helperOverheadMedianMs: round(figures.helper.medianMs - figures.unconfined.medianMs),
};
const out = path.join(ROOT, "bench/results/sandbox.json");
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
console.log(
  [
    `exec port, median of ${RUNS} runs of \`true\` (p90 in brackets):`,
    `  unconfined                 ${figures.unconfined.medianMs} ms (${figures.unconfined.p90Ms})`,
    `  bwrap, empty workspace     ${figures.bwrap.medianMs} ms (${figures.bwrap.p90Ms})`,
    `  bwrap, this repository     ${figures.bwrapInThisRepository.medianMs} ms (${figures.bwrapInThisRepository.p90Ms})`,
    `  helper, empty workspace    ${figures.helper.medianMs} ms (${figures.helper.p90Ms})`,
    `  helper, this repository    ${figures.helperInThisRepository.medianMs} ms (${figures.helperInThisRepository.p90Ms})`,
    `  overhead                   ${report.overheadMedianMs} ms; with the helper ${report.helperOverheadMedianMs} ms`,
    `wrote ${path.relative(ROOT, out)}`,
  ].join("\n"),
);
