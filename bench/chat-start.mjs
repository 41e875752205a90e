// The terminal chat's start: spawn in a pseudo-terminal (`script`) → the prompt is on screen,
// and the chat process's RSS at that moment. `--compare LAUNCHER` measures another build too
// (e.g. the main checkout's bin/interpreter), alternating the two in a new random order each
// round. Writes bench/results/chat-start.json. `--runs N` (default 15).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { descendants, rssMb } from "./daemon.mjs";
import { benchSetup, LAUNCHER, median, numberArg, ROOT, round } from "./support.mjs";

const RUNS = numberArg("--runs", 15);
const at = process.argv.indexOf("--compare");
const builds = [{ name: "this build", launcher: LAUNCHER }];
if (at > 0) builds.push({ name: "compared", launcher: path.resolve(process.argv[at + 1]) });
const { scratch, startFakeModel } = await benchSetup("oi-bench-chat-");
const model = await startFakeModel({ models: ["mock-model"] });
const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** The chat waits for input: pi-tui's status line, or the line editor's `›` after the banner. */
const ready = (screen) => /context 0%/.test(screen) || /\/help\n[\s\S]*› $/.test(screen);

/** One start: milliseconds to the prompt and the chat's RSS then (MB); then Ctrl-D. */
function start(launcher) {
  const home = mkdtempSync(path.join(scratch, "home-"));
  const cwd = mkdtempSync(path.join(scratch, "ws-"));
  const env = `env -i PATH=${quote(process.env.PATH)} HOME=${home} INTERPRETER_HOME=${home} TERM=xterm-256color OPENAI_BASE_URL=${model.url} OPENAI_API_KEY=x`;
  const command = `stty cols 100 rows 30; exec ${env} ${quote(launcher)} -m mock-model`;
  const began = performance.now();
  const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd, stdio: ["pipe", "pipe", "ignore"] });
  return new Promise((resolve, reject) => {
    let screen = "";
    let measured;
    const timer = setTimeout(() => reject(new Error(`no prompt:\n${screen}`)), 20_000);
    child.stdout.on("data", (chunk) => {
      screen += chunk.toString("utf8");
      if (measured || !ready(stripVTControlCharacters(screen).replaceAll("\r", ""))) return;
      const ms = performance.now() - began;
      const node = descendants(child.pid).find((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "node";
        } catch {
          return false;
        }
      });
      measured = { ms, rss: node ? rssMb(node) : 0 };
      child.stdin.write("\x04");
    });
    child.on("exit", () => {
      clearTimeout(timer);
      if (measured) resolve(measured);
      else reject(new Error(`exited before the prompt:\n${screen}`));
    });
  });
}

const samples = new Map(builds.map((b) => [b.name, []]));
for (const build of builds) await start(build.launcher); // warm the page cache
for (let round_ = 0; round_ < RUNS; round_++) {
  const order = [...builds].sort(() => Math.random() - 0.5);
  for (const build of order) samples.get(build.name).push(await start(build.launcher));
}
await model.close();

const results = builds.map((b) => {
  const runs = samples.get(b.name);
  return {
    build: b.name,
    launcher: path.relative(ROOT, b.launcher) || b.launcher,
    promptMs: round(median(runs.map((r) => r.ms))),
    rssMb: round(median(runs.map((r) => r.rss))),
    runs: runs.length,
  };
});
const out = path.join(ROOT, "bench/results/chat-start.json");
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2)}\n`,
);
for (const r of results)
  process.stdout.write(`${r.build}: prompt ${r.promptMs} ms, RSS ${r.rssMb} MB (${r.runs} runs)\n`);
