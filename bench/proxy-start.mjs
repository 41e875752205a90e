// Start-up through the shared daemon's proxy against today's in-process agent: spawn →
// `initialize` answered, then `session/new`, alternating in a new random order each round.
// Writes bench/results/proxy-start.json. `--runs N` (default 20).
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { rssMb, startAgent } from "./daemon.mjs";
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
const { scratch, startFakeModel } = await benchSetup("oi-bench-proxy-");
const model = await startFakeModel();

function home() {
  const dir = mkdtempSync(path.join(scratch, "home-"));
  writeFileSync(path.join(dir, "config.toml"), 'mode = "full-access"\n[daemon]\nidle_exit_secs = 120\n');
  return dir;
}

const env = (dir) => ({
  PATH: process.env.PATH,
  HOME: dir,
  INTERPRETER_HOME: dir,
  OPENAI_BASE_URL: model.url,
  OPENAI_API_KEY: "x",
});

/** One window: spawn → initialize, session/new, the window's own RSS; then it leaves. */
async function window(dir, args) {
  const agent = await startAgent({ command: LAUNCHER, args: [...args, "-m", "mock-model"], env: env(dir) });
  const { ms } = await agent.newSession(mkdtempSync(path.join(scratch, "ws-")));
  const rss = rssMb(agent.child.pid);
  await agent.stop();
  return { initMs: agent.initMs, newMs: ms, rss };
}

const shared = home();
const rows = {
  inProcess: [],
  proxy: [],
  inProcessNew: [],
  proxyNew: [],
  cold: [],
  inProcessRss: [],
  proxyRss: [],
};
// The daemon this run's warm windows share, started by a first window (and the disk cache warmed).
await window(shared, ["acp"]);
await window(shared, ["acp", "--in-process"]);
const measures = [
  async () => {
    const r = await window(shared, ["acp", "--in-process"]);
    rows.inProcess.push(r.initMs);
    rows.inProcessNew.push(r.newMs);
    rows.inProcessRss.push(r.rss);
  },
  async () => {
    const r = await window(shared, ["acp"]);
    rows.proxy.push(r.initMs);
    rows.proxyNew.push(r.newMs);
    rows.proxyRss.push(r.rss);
  },
  async () => {
    // The first window of a home: it starts the daemon and waits for its socket.
    const dir = home();
    rows.cold.push((await window(dir, ["acp"])).initMs);
    stopDaemon(dir);
  },
];
await inRandomRounds(RUNS, measures);
stopDaemon(shared);
await model.close();

const result = {
  runs: RUNS,
  medianMs: {
    inProcessInitialize: round(median(rows.inProcess)),
    proxyInitializeDaemonRunning: round(median(rows.proxy)),
    proxyInitializeDaemonStarted: round(median(rows.cold)),
    inProcessSessionNew: round(median(rows.inProcessNew)),
    proxySessionNew: round(median(rows.proxyNew)),
  },
  proxyMinusInProcessMs: round(median(rows.proxy) - median(rows.inProcess)),
  windowRssMb: { inProcess: round(median(rows.inProcessRss)), proxy: round(median(rows.proxyRss)) },
};
writeResult("proxy-start", result, rows);
