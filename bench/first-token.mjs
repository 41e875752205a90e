// Time to first token of a session's first prompt, and what loading the model SDKs costs: the
// figures that show whether moving the wires onto the official SDKs slowed what users feel.
// The scripted model answers at once; the user pauses THINK_MS between session/new and typing,
// as in every other bench, so work done in the background after session/new is off the clock.
// Usage: node bench/first-token.mjs [--runs 10] [--launcher <path to bin/interpreter>] [--out <file>]
//        [--wires chat,responses,messages]   (a build before the wires existed has only chat)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ourDaemon, rssMb, THINK_MS } from "./daemon.mjs";
import { benchSetup, LAUNCHER, median, numberArg, ROOT, round } from "./support.mjs";

const RUNS = numberArg("--runs", 10);
const at = process.argv.indexOf("--launcher");
const launcher = at > 0 ? path.resolve(process.argv[at + 1]) : LAUNCHER;
const outAt = process.argv.indexOf("--out");
const out = outAt > 0 ? process.argv[outAt + 1] : path.join(ROOT, "bench/results/first-token.json");
const wiresAt = process.argv.indexOf("--wires");
const wires = wiresAt > 0 ? process.argv[wiresAt + 1].split(",") : ["chat"];
const { scratch, startFakeModel } = await benchSetup("oi-first-token-");
const model = await startFakeModel({ models: ["mock-model"] });

/** One daemon: initialize, session/new, a pause, then a prompt; ms to the first answer chunk. */
async function firstToken(wire) {
  let sentAt;
  let firstAt;
  const daemon = ourDaemon({
    launcher,
    scratch,
    modelUrl: model.url,
    onUpdate: (params, when) => {
      if (sentAt !== undefined && params.update.sessionUpdate === "agent_message_chunk") firstAt ??= when;
    },
  });
  // Chat through the built-in provider moved by OPENAI_BASE_URL, as before the wires existed.
  if (wire !== "chat") {
    const table = `[model_providers.fake]\nbase_url = "${model.url}"\nenv_key = "OPENAI_API_KEY"\nwire_api = "${wire}"\n`;
    writeFileSync(
      path.join(daemon.home, "config.toml"),
      `mode = "full-access"\nmodel_provider = "fake"\n${table}`,
    );
  }
  const agent = await daemon.start();
  const { sessionId } = await agent.newSession(mkdtempSync(path.join(scratch, "ws-")));
  await sleep(THINK_MS);
  model.reply({ text: "Hello there." });
  sentAt = performance.now();
  await agent.prompt(sessionId, "hi");
  const rss = rssMb(agent.child.pid);
  await agent.stop();
  return { ttftMs: firstAt - sentAt, rssMb: rss };
}

/** A fresh node requiring `name` as the daemon does: wall time and the resident memory it adds. */
function importCost(name) {
  const code = `const r=process.memoryUsage().rss;const t=performance.now();require(${JSON.stringify(name)});console.log(JSON.stringify({ms:performance.now()-t,mb:(process.memoryUsage().rss-r)/1048576}))`;
  const run = spawnSync(process.execPath, ["-e", code], { cwd: ROOT, encoding: "utf8" });
  return run.status === 0 ? JSON.parse(run.stdout) : undefined;
}

const byWire = {};
for (const wire of wires) {
  const rows = { ttft: [], rss: [] };
  for (let i = 0; i < RUNS; i++) {
    const { ttftMs, rssMb: rss } = await firstToken(wire);
    rows.ttft.push(ttftMs);
    rows.rss.push(rss);
  }
  byWire[wire] = {
    firstTokenMs: round(median(rows.ttft)),
    firstTokenMsAll: rows.ttft.map(round),
    rssAfterFirstPromptMb: round(median(rows.rss)),
  };
}
// What the daemon started from the snapshot loads (one file in dist/), and the packages as
// node_modules holds them (what the plain entry point loads).
const imports = {};
const targets = {
  openai: "openai",
  "@anthropic-ai/sdk": "@anthropic-ai/sdk",
  undici: "undici",
  "dist/vendor-openai.cjs": "./dist/vendor-openai.cjs",
  "dist/vendor-anthropic-sdk.cjs": "./dist/vendor-anthropic-sdk.cjs",
};
for (const [label, specifier] of Object.entries(targets)) {
  const samples = Array.from({ length: 5 }, () => importCost(specifier)).filter(Boolean);
  imports[label] = samples.length
    ? { ms: round(median(samples.map((s) => s.ms))), mb: round(median(samples.map((s) => s.mb))) }
    : "not there";
}
await model.close();
const result = {
  date: new Date().toISOString(),
  launcher,
  runs: RUNS,
  wires: byWire,
  imports,
};
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
process.stderr.write(`${JSON.stringify(result)}\n`);
