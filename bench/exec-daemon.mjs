// `interpreter exec --json` through a running shared daemon against the in-process run (and the
// run that has to start the daemon first): spawn → first line on stdout (`thread.started`: the
// session is open) and spawn → exit, for a one-answer task against the scripted model, in a new
// random order each round. Writes bench/results/exec-daemon.json. `--runs N` (default 20).
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  benchSetup,
  inRandomRounds,
  LAUNCHER,
  median,
  numberArg,
  round,
  stopDaemon,
  writeResult,
} from "./support.mjs";

const RUNS = numberArg("--runs", 20);
const { scratch, startFakeModel } = await benchSetup("oi-bench-exec-daemon-");
const model = await startFakeModel();

function home() {
  const dir = mkdtempSync(path.join(scratch, "home-"));
  writeFileSync(path.join(dir, "config.toml"), "[daemon]\nidle_exit_secs = 120\n");
  return dir;
}

/** One `exec --json` run: ms to its first stdout line and to its exit; it must succeed. */
function run(dir, mode) {
  model.reply({ text: "The answer is 42." });
  const started = performance.now();
  const child = spawn(LAUNCHER, ["exec", mode, "--json", "-m", "mock-model", "what is the answer?"], {
    cwd: mkdtempSync(path.join(scratch, "ws-")),
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      INTERPRETER_HOME: dir,
      OPENAI_BASE_URL: model.url,
      OPENAI_API_KEY: "x",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let first;
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => {
    first ??= performance.now() - started;
    out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      const total = performance.now() - started;
      if (code !== 0 || !out.includes("The answer is 42.") || /in-process/.test(err))
        reject(new Error(`exec ${mode} failed (${code}): ${err}`));
      else resolve({ first, total });
    }),
  );
}

const shared = home();
const rows = {
  inProcessFirst: [],
  inProcessTotal: [],
  daemonFirst: [],
  daemonTotal: [],
  coldFirst: [],
  coldTotal: [],
};
// The daemon this run's warm runs share, and the disk cache warmed.
await run(shared, "--daemon");
await run(shared, "--in-process");
const measures = [
  async () => {
    const r = await run(shared, "--in-process");
    rows.inProcessFirst.push(r.first);
    rows.inProcessTotal.push(r.total);
  },
  async () => {
    const r = await run(shared, "--daemon");
    rows.daemonFirst.push(r.first);
    rows.daemonTotal.push(r.total);
  },
  async () => {
    // The first run of a home: it starts the daemon and waits for its socket.
    const dir = home();
    const r = await run(dir, "--daemon");
    rows.coldFirst.push(r.first);
    rows.coldTotal.push(r.total);
    stopDaemon(dir);
  },
];
await inRandomRounds(RUNS, measures);
stopDaemon(shared);
await model.close();

const result = {
  runs: RUNS,
  medianMs: {
    inProcessFirstOutput: round(median(rows.inProcessFirst)),
    inProcessTotal: round(median(rows.inProcessTotal)),
    daemonRunningFirstOutput: round(median(rows.daemonFirst)),
    daemonRunningTotal: round(median(rows.daemonTotal)),
    daemonStartedFirstOutput: round(median(rows.coldFirst)),
    daemonStartedTotal: round(median(rows.coldTotal)),
  },
};
writeResult("exec-daemon", result, rows);
