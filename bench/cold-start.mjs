// Cold start, in one run and a new random order each round: `node -e 0`, a bare agent on the ACP
// SDK (as it is and from a start-up snapshot), our daemon from the start-up snapshot, our daemon
// from the plain entry point. Also session/new and idle memory.
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
  const agent = await startAgent({ ...start, env: { PATH: process.env.PATH, ...start.env } });
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
  const measures = [
    async () => rows.node.push(await nodeBaseline()),
    async () => {
      const bare = await bareAgent(scratch);
      rows.bare.push(bare.initMs);
      rows.bareNew.push(bare.newMs);
    },
    async () => rows.bareSnapshot.push((await bareAgent(scratch, bareFromSnapshot)).initMs),
    async () => {
      const fast = await ours({ scratch, modelUrl, snapshot: true, idle: rows.idleRss.length < 3 });
      rows.snapshot.push(fast.initMs);
      rows.sessionNew.push(fast.newMs);
      if (fast.idleRssMb !== undefined) rows.idleRss.push(fast.idleRssMb);
    },
    async () => rows.plain.push((await ours({ scratch, modelUrl, snapshot: false })).initMs),
  ];
  // A new order every round: here a start measured up to 20 ms faster or slower depending on
  // what ran just before it (`node -e 0` right after our daemon's exit: 96 against 73 ms), which
  // a fixed order turns into a difference between agents.
  for (let i = 0; i < runs; i++) for (const measure of shuffled(measures)) await measure();
  return rows;
}

function shuffled(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
