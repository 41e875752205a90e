// Benchmarks (not tests): cold start, session/new and a ten-tool-call prompt against the
// scripted model at zero latency. Writes bench/results/latest.json and prints a table.
// Usage: npm run bench [-- --runs 10]
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream } from "@agentclientprotocol/sdk";
import { BIN, benchSetup, median, numberArg, ROOT, round } from "./support.mjs";

const RUNS = numberArg("--runs", 10);
const { scratch, startFakeModel } = await benchSetup("oi-bench-");

function nodeBaseline() {
  const start = performance.now();
  return new Promise((resolve) =>
    spawn(process.execPath, ["-e", "0"]).on("exit", () => resolve(performance.now() - start)),
  );
}

async function daemonRun(model, { tools, mode = "full-access" }) {
  const home = mkdtempSync(path.join(scratch, "home-"));
  const cwd = mkdtempSync(path.join(scratch, "ws-"));
  writeFileSync(path.join(home, "config.toml"), `mode = "${mode}"\n`);
  const start = performance.now();
  const child = spawn(process.execPath, [BIN, "acp", "-m", "mock-model"], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      INTERPRETER_HOME: home,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "x",
    },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  const connection = client({ name: "bench" }).connect(stream);
  await connection.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: {},
    clientInfo: { name: "bench", version: "1" },
  });
  const initialized = performance.now();
  const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
  const created = performance.now();
  let promptMs;
  if (tools) {
    const commands = [
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
    model.reply(
      ...commands.map((command, i) => ({
        toolCalls: [{ id: `c${i}`, name: "shell_command", arguments: { command } }],
      })),
      { text: "All ten commands ran." },
    );
    const before = performance.now();
    await connection.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "run ten" }],
    });
    promptMs = performance.now() - before;
    if (readFileSync(path.join(cwd, "out.txt"), "utf8") !== "a\nb\n")
      throw new Error("ten-tools run did not do its work");
  }
  const rss = readRss(child.pid);
  child.stdin.end();
  await new Promise((resolve) => child.on("exit", resolve));
  return { initMs: initialized - start, newMs: created - initialized, promptMs, rssMb: rss };
}

function readRss(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

const model = await startFakeModel({ models: ["mock-model"] });
const rows = { node: [], init: [], sessionNew: [], tenTools: [], tenToolsSandboxed: [], rss: [] };
await daemonRun(model, { tools: false }); // warm-up (disk cache, first build of the DB)
for (let i = 0; i < RUNS; i++) {
  rows.node.push(await nodeBaseline());
  const cold = await daemonRun(model, { tools: i % 2 === 0 });
  // `auto` runs every command unasked inside bubblewrap: the same task, confined.
  if (i % 2 === 1)
    rows.tenToolsSandboxed.push((await daemonRun(model, { tools: true, mode: "auto" })).promptMs);
  rows.init.push(cold.initMs);
  rows.sessionNew.push(cold.newMs);
  if (cold.promptMs !== undefined) {
    rows.tenTools.push(cold.promptMs);
    rows.rss.push(cold.rssMb);
  }
}
await model.close();

const result = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  runs: RUNS,
  medians: {
    nodeBaselineMs: round(median(rows.node)),
    spawnToInitializeMs: round(median(rows.init)),
    sessionNewMs: round(median(rows.sessionNew)),
    tenToolCallsPromptMs: round(median(rows.tenTools)),
    tenToolCallsSandboxedPromptMs: round(median(rows.tenToolsSandboxed)),
    rssAfterTenToolsMb: round(median(rows.rss)),
  },
  samples: rows,
};
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
writeFileSync(path.join(ROOT, "bench/results/latest.json"), `${JSON.stringify(result, null, 2)}\n`);
const m = result.medians;
console.log(`| measure (median of ${RUNS}) | ms |
| --- | --- |
| node -e 0 | ${m.nodeBaselineMs} |
| spawn → initialize answered | ${m.spawnToInitializeMs} |
| session/new | ${m.sessionNewMs} |
| prompt with 10 sequential shell calls (full-access, unconfined) | ${m.tenToolCallsPromptMs} |
| the same in auto mode (each command in bubblewrap) | ${m.tenToolCallsSandboxedPromptMs} |
| daemon RSS after that prompt (MB) | ${m.rssAfterTenToolsMb} |`);
