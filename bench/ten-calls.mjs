// The ten-call task: one prompt whose model asks for ten shell commands in a row, unconfined
// (full-access) and with every command in bubblewrap (auto). Peak PSS of the daemon's process
// tree is sampled during the prompt. The same ten commands run directly (by bash, as the daemon
// runs them) give the floor, so the daemon's own per-call overhead is (prompt − direct) / 10,
// for the session's first prompt (after a user's pause) and for a second one (steady state). A
// model answers in seconds, not at once: the task runs once more with every answer MODEL_MS
// late, which is off the overhead too. The sandboxed runs are taken twice: each command in a
// bubblewrap of its own (`[sandbox] per_session_helper = false`), and forked by a confined
// helper per sandbox (the default). The bare agent (bench/bare-tool-agent.mjs: the SDK, a turn
// loop, the commands unsandboxed, nothing stored) runs the same task the same ways, and every
// row is also given as a ratio to it. Run alone, `node bench/ten-calls.mjs [--runs 5]` writes
// the medians to bench/results/ten-calls.json.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import { bareAgent, cpuMs, ourDaemon, peakSampler, THINK_MS, taskStep, treePssMb } from "./daemon.mjs";
import { benchSetup, LAUNCHER, median, numberArg, ROOT, round } from "./support.mjs";

export const COMMANDS = [
  "echo one",
  "ls",
  "cat out.txt || true",
  "pwd",
  "wc -c out.txt || true",
  "echo a > out.txt",
  "echo b >> out.txt",
  "grep a out.txt",
  "echo done",
  "true",
];

/** How late the paced model answers each request: the fastest hosted models' first token. */
export const MODEL_MS = 50;

/**
 * The floor: the ten commands as the daemon runs them, `/bin/bash -c <command>` (run-command.ts;
 * Codex's `exec_command` is a script for the user's shell). Before 2026-12-01 the floor ran
 * them with `/bin/sh` (dash here), which starts ~2 ms faster per command than bash: that
 * difference is the command's, not the daemon's, and was counted as overhead.
 */
function direct(cwd) {
  const start = performance.now();
  for (const command of COMMANDS) execFileSync("/bin/bash", ["-c", command], { cwd, stdio: "ignore" });
  return performance.now() - start;
}

const HELPER = "[sandbox]\nper_session_helper = true\n";
const PER_COMMAND = "[sandbox]\nper_session_helper = false\n";

/** One agent through the task; `bare` takes the bare agent instead of our daemon. */
export async function once({ scratch, model, replyChunks, mode, modelMs = 0, config = "", bare = false }) {
  const daemon = bare
    ? bareAgent({ scratch, modelUrl: model.url })
    : ourDaemon({ launcher: LAUNCHER, scratch, modelUrl: model.url, mode, config });
  const agent = await daemon.start();
  const cwd = mkdtempSync(path.join(scratch, "ws-"));
  const { sessionId, ms: newMs } = await agent.newSession(cwd);
  await sleep(THINK_MS);
  const script = (done) =>
    Array.from({ length: COMMANDS.length + 1 }, () =>
      paced(
        taskStep({
          replyChunks,
          calls: done + COMMANDS.length,
          command: (i) => COMMANDS[i % COMMANDS.length],
        }),
        modelMs,
      ),
    );
  model.reply(...script(0));
  const stopPss = peakSampler(() => treePssMb(agent.child.pid));
  const { ms } = await agent.prompt(sessionId, "run ten");
  const pss = stopPss();
  if (readFileSync(path.join(cwd, "out.txt"), "utf8") !== "a\nb\n")
    throw new Error("the ten calls did not run");
  // The same ten again in the same session: the daemon's steady state.
  model.reply(...script(COMMANDS.length));
  const cpuBefore = cpuMs(agent.child.pid);
  const again = await agent.prompt(sessionId, "run ten more");
  // The agent's own CPU per call (its process only: the commands are its children, or run in
  // the spawn helper's tree).
  const cpuPerCall = (cpuMs(agent.child.pid) - cpuBefore) / COMMANDS.length;
  await agent.stop();
  return {
    initMs: agent.initMs,
    newMs,
    ms,
    againMs: again.ms,
    cpuPerCall,
    pss,
    directMs: direct(mkdtempSync(path.join(scratch, "ws-"))),
  };
}

function paced(step, ms) {
  return ms === 0 ? step : { handle: (req, res, body) => setTimeout(() => step.handle(req, res, body), ms) };
}

export async function tenCalls({ runs, scratch, model, replyChunks }) {
  const rows = {
    bare: [],
    bareWarm: [],
    pacedBareWarmOverheadPerCall: [],
    bareCpuPerCall: [],
    pssBare: [],
    unconfined: [],
    sandboxed: [],
    sandboxedHelper: [],
    sandboxedWarm: [],
    sandboxedHelperWarm: [],
    pacedSandboxedWarmOverheadPerCall: [],
    pacedSandboxedHelperWarmOverheadPerCall: [],
    direct: [],
    overheadPerCall: [],
    warmOverheadPerCall: [],
    daemonCpuPerCall: [],
    pss: [],
    pssSandboxed: [],
    pacedOverheadPerCall: [],
    pacedWarmOverheadPerCall: [],
    initializeUnconfined: [],
    initializeSandboxed: [],
    initializeSandboxedHelper: [],
    sessionNewUnconfined: [],
    sessionNewSandboxed: [],
    sessionNewSandboxedHelper: [],
  };
  for (let i = 0; i < runs; i++) {
    const free = await once({ scratch, model, replyChunks, mode: "full-access" });
    rows.unconfined.push(free.ms);
    rows.direct.push(free.directMs);
    rows.overheadPerCall.push((free.ms - free.directMs) / COMMANDS.length);
    rows.warmOverheadPerCall.push((free.againMs - free.directMs) / COMMANDS.length);
    rows.daemonCpuPerCall.push(free.cpuPerCall);
    rows.pss.push(free.pss);
    rows.initializeUnconfined.push(free.initMs);
    rows.sessionNewUnconfined.push(free.newMs);
    const floor = await once({ scratch, model, replyChunks, bare: true });
    rows.bare.push(floor.ms);
    rows.bareWarm.push(floor.againMs);
    rows.bareCpuPerCall.push(floor.cpuPerCall);
    rows.pssBare.push(floor.pss);
    const boxed = await once({ scratch, model, replyChunks, mode: "auto", config: PER_COMMAND });
    rows.sandboxed.push(boxed.ms);
    rows.sandboxedWarm.push(boxed.againMs);
    rows.pssSandboxed.push(boxed.pss);
    rows.initializeSandboxed.push(boxed.initMs);
    rows.sessionNewSandboxed.push(boxed.newMs);
    const helped = await once({ scratch, model, replyChunks, mode: "auto", config: HELPER });
    rows.sandboxedHelper.push(helped.ms);
    rows.sandboxedHelperWarm.push(helped.againMs);
    rows.initializeSandboxedHelper.push(helped.initMs);
    rows.sessionNewSandboxedHelper.push(helped.newMs);
    const slow = await once({ scratch, model, replyChunks, mode: "full-access", modelMs: MODEL_MS });
    const waited = (COMMANDS.length + 1) * MODEL_MS;
    const pacedFloor = await once({ scratch, model, replyChunks, bare: true, modelMs: MODEL_MS });
    rows.pacedBareWarmOverheadPerCall.push(
      (pacedFloor.againMs - waited - pacedFloor.directMs) / COMMANDS.length,
    );
    for (const [row, config] of [
      [rows.pacedSandboxedWarmOverheadPerCall, PER_COMMAND],
      [rows.pacedSandboxedHelperWarmOverheadPerCall, HELPER],
    ]) {
      const paced = await once({ scratch, model, replyChunks, mode: "auto", modelMs: MODEL_MS, config });
      row.push((paced.againMs - waited - paced.directMs) / COMMANDS.length);
    }
    rows.pacedOverheadPerCall.push((slow.ms - waited - slow.directMs) / COMMANDS.length);
    rows.pacedWarmOverheadPerCall.push((slow.againMs - waited - slow.directMs) / COMMANDS.length);
  }
  return rows;
}

/** Each row's median over the bare agent's, first prompt and second: the ratio the targets name. */
export function timesBare(m) {
  const x = (ours, bare) => Math.round((ours / bare) * 100) / 100;
  return {
    unconfined: x(m.unconfined, m.bare),
    unconfinedWarm: x(m.unconfinedWarm, m.bareWarm),
    sandboxed: x(m.sandboxed, m.bare),
    sandboxedWarm: x(m.sandboxedWarm, m.bareWarm),
    sandboxedHelper: x(m.sandboxedHelper, m.bare),
    sandboxedHelperWarm: x(m.sandboxedHelperWarm, m.bareWarm),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const runs = numberArg("--runs", 5);
  const { scratch, startFakeModel, replyChunks } = await benchSetup("oi-bench-ten-");
  const model = await startFakeModel({ models: ["mock-model"] });
  const rows = await tenCalls({ runs, scratch, model, replyChunks });
  await model.close();
  const medians = Object.fromEntries(Object.entries(rows).map(([name, xs]) => [name, round(median(xs))]));
  // The unconfined second prompt, which the rows keep only as overhead per call.
  medians.unconfinedWarm = round(median(rows.direct) + COMMANDS.length * median(rows.warmOverheadPerCall));
  const report = {
    date: new Date().toISOString(),
    runs,
    loadAverage1m: round(os.loadavg()[0]),
    medians,
    timesBare: timesBare(medians),
  };
  writeFileSync(path.join(ROOT, "bench/results/ten-calls.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
  process.exit(0);
}
