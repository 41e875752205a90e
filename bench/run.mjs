// Benchmarks (not tests), against the scripted model at zero latency, all in one run so the
// ratios compare like with like: cold start (with `node -e 0` and a bare SDK agent alternating),
// session/new, the ten-call task (unconfined and sandboxed, with peak PSS), many concurrent
// sessions, and session/load of 10,000 events. `--peers` adds other agents installed from npm.
// Writes bench/results/latest.json and bench/results/latest.md.
// Usage: npm run bench [-- --runs 8] [-- --peers]
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { coldStart } from "./cold-start.mjs";
import { concurrency } from "./concurrency.mjs";
import { markdownReport } from "./report.mjs";
import { sessionLoad } from "./session-load.mjs";
import { benchSetup, median, numberArg, ROOT, round } from "./support.mjs";
import { MODEL_MS, tenCalls } from "./ten-calls.mjs";

const RUNS = numberArg("--runs", 8);
const { scratch, startFakeModel, replyChunks, openStore } = await benchSetup("oi-bench-");
const model = await startFakeModel({ models: ["mock-model"] });
const say = (text) => process.stderr.write(`bench: ${text}\n`);

say("cold start");
const cold = await coldStart({ runs: RUNS, scratch, modelUrl: model.url });
say("ten-call task");
const ten = await tenCalls({ runs: Math.max(3, Math.ceil(RUNS / 2)), scratch, model, replyChunks });
say("concurrent sessions");
const load = await concurrency({ levels: [1, 10, 25, 50], scratch, model, replyChunks });
say("session/load of 10,000 events");
const loaded = await sessionLoad({ runs: 6, scratch, modelUrl: model.url, openStore });
let peers;
if (process.argv.includes("--peers")) {
  say("peers");
  const { measurePeers } = await import("./peers.mjs");
  peers = await measurePeers({ runs: Math.max(3, Math.ceil(RUNS / 2)), scratch, model, replyChunks });
}
await model.close();

const m = (xs) => round(median(xs));
const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  cpuModel: os.cpus()[0]?.model,
  runs: RUNS,
  medians: {
    nodeBaselineMs: m(cold.node),
    bareSdkAgentInitializeMs: m(cold.bare),
    bareSdkAgentSnapshotInitializeMs: m(cold.bareSnapshot),
    bareSnapshotRatioToNode: Math.round((median(cold.bareSnapshot) / median(cold.node)) * 100) / 100,
    spawnToInitializeMs: m(cold.snapshot),
    spawnToInitializePlainEntryMs: m(cold.plain),
    initializeRatioToNode: Math.round((median(cold.snapshot) / median(cold.node)) * 100) / 100,
    sessionNewMs: m(cold.sessionNew),
    bareSdkAgentSessionNewMs: m(cold.bareNew),
    idleRssMb: m(cold.idleRss),
    tenToolCallsBareAgentPromptMs: m(ten.bare),
    tenToolCallsBareAgentWarmPromptMs: m(ten.bareWarm),
    tenToolCallsPromptMs: m(ten.unconfined),
    tenToolCallsSandboxedPromptMs: m(ten.sandboxed),
    tenToolCallsSandboxedHelperPromptMs: m(ten.sandboxedHelper),
    tenToolCallsSandboxedWarmPromptMs: m(ten.sandboxedWarm),
    tenToolCallsSandboxedHelperWarmPromptMs: m(ten.sandboxedHelperWarm),
    pacedSandboxedWarmOverheadPerCallMs: m(ten.pacedSandboxedWarmOverheadPerCall),
    pacedSandboxedHelperWarmOverheadPerCallMs: m(ten.pacedSandboxedHelperWarmOverheadPerCall),
    tenCommandsDirectMs: m(ten.direct),
    overheadPerCallMs: m(ten.overheadPerCall),
    warmOverheadPerCallMs: m(ten.warmOverheadPerCall),
    daemonCpuPerCallMs: m(ten.daemonCpuPerCall),
    pacedModelMs: MODEL_MS,
    pacedOverheadPerCallMs: m(ten.pacedOverheadPerCall),
    pacedWarmOverheadPerCallMs: m(ten.pacedWarmOverheadPerCall),
    peakTreePssMb: m(ten.pss),
    peakTreePssSandboxedMb: m(ten.pssSandboxed),
    sessionLoad10kEventsMs: m(loaded.ms),
    sessionLoadFirstUpdateMs: m(loaded.firstUpdateMs),
    sessionLoadDaemonCpuMs: m(loaded.daemonCpuMs),
    sessionLoadClientCpuMs: m(loaded.clientCpuMs),
  },
  sessionLoadUpdates: loaded.updates,
  concurrency: load.map((row) => ({
    ...row,
    wallMs: round(row.wallMs),
    callsPerSecond: round(row.callsPerSecond),
    daemonCpuShare: round(row.daemonCpuShare),
    peakRssMb: round(row.peakRssMb),
  })),
  peers,
  samples: { cold, ten, sessionLoadMs: loaded.ms },
};
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
writeFileSync(path.join(ROOT, "bench/results/latest.json"), `${JSON.stringify(result, null, 2)}\n`);
const report = markdownReport(result);
writeFileSync(path.join(ROOT, "bench/results/latest.md"), report);
process.stdout.write(report);
