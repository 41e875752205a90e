// Cold start, alternating in one run: `node -e 0`, a bare agent on the ACP SDK (as it is and
// from a start-up snapshot), our daemon from the start-up snapshot, our daemon from the plain
// entry point. Also session/new and idle memory.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { bareSnapshotAgent } from "./bare-snapshot.mjs";
import { ourDaemon, rssMb, startAgent } from "./daemon.mjs";
import { LAUNCHER, ROOT } from "./support.mjs";

/**
 * `node -e 0` with the same clean environment as the agents. Not the bench's own: a variable
 * such as NODE_EXTRA_CA_CERTS (set on the machines of 2026-12-01) makes node load certificates
 * before any JavaScript, ~40 ms here, and inflated the baseline of every ratio before.
 */
function nodeBaseline() {
  const start = performance.now();
  return new Promise((resolve) =>
    spawn(process.execPath, ["-e", "0"], { env: { PATH: process.env.PATH } }).on("exit", () =>
      resolve(performance.now() - start),
    ),
  );
}

async function bareAgent(
  scratch,
  start = { command: process.execPath, args: [path.join(ROOT, "bench/bare-agent.mjs")] },
) {
  const agent = await startAgent({ ...start, env: { PATH: process.env.PATH } });
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
  const rows = {
    node: [],
    bare: [],
    bareNew: [],
    bareSnapshot: [],
    snapshot: [],
    plain: [],
    sessionNew: [],
    idleRss: [],
  };
  const bareFromSnapshot = await bareSnapshotAgent(scratch);
  await ours({ scratch, modelUrl, snapshot: true }); // warm the disk cache
  for (let i = 0; i < runs; i++) {
    rows.node.push(await nodeBaseline());
    const bare = await bareAgent(scratch);
    rows.bare.push(bare.initMs);
    rows.bareNew.push(bare.newMs);
    rows.bareSnapshot.push((await bareAgent(scratch, bareFromSnapshot)).initMs);
    const fast = await ours({ scratch, modelUrl, snapshot: true, idle: i < 3 });
    rows.snapshot.push(fast.initMs);
    rows.sessionNew.push(fast.newMs);
    if (fast.idleRssMb !== undefined) rows.idleRss.push(fast.idleRssMb);
    rows.plain.push((await ours({ scratch, modelUrl, snapshot: false })).initMs);
  }
  return rows;
}
