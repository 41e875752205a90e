// Output flood (security.md §5.8): one `exec_command` printing 1 GiB without a newline, through
// the real daemon, without the sandbox (full-access) and inside it (workspace-write, the client
// approves). Samples the daemon's RSS every 50 ms and probes how fast it answers another request
// meanwhile. Writes bench/results/flood.json and prints a table.
// Usage: node scripts/build.mjs && node bench/flood.mjs [--runs 3] [--bytes 1073741824]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { BIN, benchSetup, median, numberArg, ROOT, round } from "./support.mjs";

const RUNS = numberArg("--runs", 3);
const BYTES = numberArg("--bytes", 1024 ** 3);
const COMMAND = `head -c ${BYTES} /dev/zero | tr '\\0' 'x'`;
const SAMPLE_MS = 50;
const PROBE_MS = 200;

const { scratch, startFakeModel } = await benchSetup("oi-bench-flood-");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function readRssMb(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function floodRun(model, mode) {
  const home = mkdtempSync(path.join(scratch, "home-"));
  const cwd = mkdtempSync(path.join(scratch, "ws-"));
  writeFileSync(path.join(home, "config.toml"), `mode = "${mode}"\n`);
  const child = spawn(process.execPath, [BIN, "acp", "--in-process", "-m", "mock-model"], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      INTERPRETER_HOME: home,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "x",
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const updates = [];
  let permissions = 0;
  const app = client({ name: "bench-flood" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params.update);
    })
    .onRequest(methods.client.session.requestPermission, () => {
      permissions++;
      return { outcome: { outcome: "selected", optionId: "allow_once" } };
    });
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout)));
  await connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: "bench-flood", version: "1" },
  });
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  // Let start-up garbage settle, then take the baseline as the median of a few samples.
  await sleep(500);
  const before = [];
  for (let i = 0; i < 5; i++) {
    before.push(readRssMb(child.pid));
    await sleep(SAMPLE_MS);
  }
  const baselineMb = median(before);

  model.reply(
    {
      toolCalls: [{ id: "flood", name: "exec_command", arguments: { cmd: COMMAND, yield_time_ms: 30_000 } }],
    },
    { text: "That was a lot of x." },
  );
  const samples = [];
  const sampler = setInterval(() => samples.push(readRssMb(child.pid)), SAMPLE_MS);
  // Another request while the flood runs: does the daemon keep answering?
  const probes = [];
  let flooding = true;
  const prober = (async () => {
    while (flooding) {
      const start = performance.now();
      await connection.agent.request(methods.agent.session.list, {});
      probes.push(performance.now() - start);
      await sleep(PROBE_MS);
    }
  })();
  const updatesBefore = updates.length;
  const start = performance.now();
  const response = await connection.agent.request(methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "print a gigabyte" }],
  });
  const wallMs = performance.now() - start;
  flooding = false;
  clearInterval(sampler);
  await prober;
  if (response.stopReason !== "end_turn") throw new Error(`${mode}: stop reason ${response.stopReason}`);

  const toolMessage = model.requests
    .at(-1)
    .body.messages.find((m) => m.role === "tool" && m.tool_call_id === "flood");
  const toolOutput = typeof toolMessage?.content === "string" ? toolMessage.content : "";
  // Codex's marker counts what was cut from the middle: with head and tail, the whole stream
  // (plus the exec runner's own "[… N bytes omitted …]" note, which is cut too).
  const cut = Number(/…(\d+) chars truncated…/.exec(toolOutput)?.[1] ?? 0);
  const body = toolOutput.slice(toolOutput.indexOf("\nOutput:\n") + "\nOutput:\n".length);
  const kept = (body.match(/x/g) ?? []).length;
  if (!toolOutput.startsWith("Exit code: 0\n") || cut + kept < BYTES || cut + kept > BYTES + 64) {
    throw new Error(
      `${mode}: the command did not print ${BYTES} bytes (cut ${cut}, kept ${kept}):\n${toolOutput.slice(0, 300)}`,
    );
  }
  const toolUpdates = updates
    .slice(updatesBefore)
    .filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update");
  const peakMb = Math.max(...samples.filter((x) => x !== undefined));
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
  return {
    baselineRssMb: round(baselineMb),
    peakRssMb: round(peakMb),
    growthMb: round(peakMb - baselineMb),
    promptWallMs: Math.round(wallMs),
    throughputMbPerS: round(BYTES / 1024 ** 2 / (wallMs / 1000)),
    toolOutputBytes: Buffer.byteLength(toolOutput),
    toolCallUpdates: toolUpdates.length,
    permissionRequests: permissions,
    probeMaxMs: round(Math.max(...probes)),
    probes: probes.length,
    rssSamples: samples.length,
  };
}

const model = await startFakeModel({ models: ["mock-model"] });
const cases = { unconfined: "full-access", sandboxed: "workspace-write" };
const runs = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let i = 0; i < RUNS; i++) {
  // Interleaved, so a burst of other work on the machine hits both alike.
  for (const [name, mode] of Object.entries(cases)) runs[name].push(await floodRun(model, mode));
}
await model.close();
rmSync(scratch, { recursive: true, force: true });

const summarize = (xs) =>
  Object.fromEntries(Object.keys(xs[0]).map((key) => [key, round(median(xs.map((x) => x[key])))]));
const report = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${os.release()} ${process.arch}`,
  cpus: os.cpus().length,
  loadAverage: os.loadavg().map(round),
  uid: process.getuid?.(),
  command: COMMAND,
  bytes: BYTES,
  runs: RUNS,
  medians: Object.fromEntries(Object.entries(runs).map(([name, xs]) => [name, summarize(xs)])),
  samples: runs,
};
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
writeFileSync(path.join(ROOT, "bench/results/flood.json"), `${JSON.stringify(report, null, 2)}\n`);

const m = report.medians;
const row = (label, key, unit = "") =>
  `| ${label} | ${m.unconfined[key]}${unit} | ${m.sandboxed[key]}${unit} |`;
console.log(`${(BYTES / 1024 ** 3).toFixed(2)} GiB flood, median of ${RUNS} runs

| | full-access | workspace-write (sandbox) |
| --- | --- | --- |
${row("daemon RSS before the prompt", "baselineRssMb", " MB")}
${row("peak RSS during the prompt", "peakRssMb", " MB")}
${row("growth (peak − baseline)", "growthMb", " MB")}
${row("prompt wall time", "promptWallMs", " ms")}
${row("tool output the model received", "toolOutputBytes", " bytes")}
${row("session/update notifications for the call", "toolCallUpdates")}
${row("slowest other request meanwhile", "probeMaxMs", " ms")}`);
