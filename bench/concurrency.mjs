// Many sessions in one daemon at once, each running the ten-call task against the shared
// scripted model: wall time, tool calls per second, daemon CPU use, peak RSS.
import { mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { cpuMs, ourDaemon, peakSampler, rssMb, taskStep } from "./daemon.mjs";
import { LAUNCHER } from "./support.mjs";

const CALLS = 10;

export async function concurrency({ levels, scratch, model, replyChunks }) {
  const rows = [];
  for (const n of levels) {
    const daemon = ourDaemon({ launcher: LAUNCHER, scratch, modelUrl: model.url });
    const agent = await daemon.start();
    const sessions = [];
    for (let i = 0; i < n; i++) {
      const cwd = mkdtempSync(path.join(scratch, "ws-"));
      sessions.push({ cwd, ...(await agent.newSession(cwd)) });
    }
    model.reply(
      ...Array.from({ length: n * (CALLS + 1) }, () =>
        taskStep({ replyChunks, calls: CALLS, command: (i) => `echo call-${i} >> out.txt` }),
      ),
    );
    const cpuBefore = cpuMs(agent.child.pid);
    const stopRss = peakSampler(() => rssMb(agent.child.pid));
    const start = performance.now();
    await Promise.all(sessions.map((s) => agent.prompt(s.sessionId, "run ten")));
    const wallMs = performance.now() - start;
    const cpu = cpuMs(agent.child.pid) - cpuBefore;
    const peakRssMb = stopRss();
    await agent.stop();
    for (const s of sessions) {
      const lines = readFileSync(path.join(s.cwd, "out.txt"), "utf8").trim().split("\n");
      if (lines.length !== CALLS)
        throw new Error(`session ${s.sessionId}: ${lines.length} calls ran, not ${CALLS}`);
    }
    rows.push({
      sessions: n,
      wallMs,
      callsPerSecond: (n * CALLS * 1000) / wallMs,
      daemonCpuShare: cpu / wallMs,
      peakRssMb,
    });
  }
  return rows;
}
