// Cold start, alternating in one run: `node -e 0`, a bare agent on the ACP SDK, our daemon from
// the start-up snapshot, our daemon from the plain entry point. Also session/new and idle memory.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ourDaemon, rssMb, startAgent } from "./daemon.mjs";
import { LAUNCHER, ROOT } from "./support.mjs";

function nodeBaseline() {
  const start = performance.now();
  return new Promise((resolve) =>
    spawn(process.execPath, ["-e", "0"]).on("exit", () => resolve(performance.now() - start)),
  );
}

async function bareAgent(scratch) {
  const agent = await startAgent({
    command: process.execPath,
    args: [path.join(ROOT, "bench/bare-agent.mjs")],
    env: { PATH: process.env.PATH },
  });
  const { ms } = await agent.newSession(mkdtempSync(path.join(scratch, "ws-")));
  await agent.stop();
  return { initMs: agent.initMs, newMs: ms };
}

async function ours({ scratch, modelUrl, snapshot, idle }) {
  const daemon = ourDaemon({ launcher: LAUNCHER, scratch, modelUrl, snapshot });
  const agent = await daemon.start();
  const { ms } = await agent.newSession(mkdtempSync(path.join(scratch, "ws-")));
  let idleRssMb;
  if (idle) {
    // Let start-up work in the background (the sandbox probe) finish, then read.
    await sleep(1_000);
    idleRssMb = rssMb(agent.child.pid);
  }
  await agent.stop();
  return { initMs: agent.initMs, newMs: ms, idleRssMb };
}

export async function coldStart({ runs, scratch, modelUrl }) {
  const rows = { node: [], bare: [], bareNew: [], snapshot: [], plain: [], sessionNew: [], idleRss: [] };
  await ours({ scratch, modelUrl, snapshot: true }); // warm the disk cache
  for (let i = 0; i < runs; i++) {
    rows.node.push(await nodeBaseline());
    const bare = await bareAgent(scratch);
    rows.bare.push(bare.initMs);
    rows.bareNew.push(bare.newMs);
    const fast = await ours({ scratch, modelUrl, snapshot: true, idle: i < 3 });
    rows.snapshot.push(fast.initMs);
    rows.sessionNew.push(fast.newMs);
    if (fast.idleRssMb !== undefined) rows.idleRss.push(fast.idleRssMb);
    rows.plain.push((await ours({ scratch, modelUrl, snapshot: false })).initMs);
  }
  return rows;
}
