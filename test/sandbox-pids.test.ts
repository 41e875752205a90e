import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import { createPidsCgroup } from "../src/tools/sandbox/pids-cgroup.js";
import { createSandboxedExec, PIDS_MAX } from "../src/tools/sandbox/sandboxed-exec.js";
import { liveProcesses } from "./support/background-kit.js";
import { needs } from "./support/requires.js";

const probe = await createPidsCgroup({ name: `openinterpreter-probe-${process.pid}`, max: 1 });
probe?.release();

(probe ? needs("bwrap").describe : describe.skip)("fork bombs in the sandbox", () => {
  it("stop at the pids cap, and the group is gone afterwards", async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), "oi-pids-"));
    const sandbox = createSandboxedExec({ env: buildChildEnv(process.env), whenUnavailable: "refuse" });
    const exec = sandbox.exec({ mode: "workspace-write", roots: [ws] });
    try {
      // Far more children than the cap; each waits, so they would all be alive at once.
      const result = await exec.run({
        command: `for i in $(seq ${PIDS_MAX * 2}); do sleep 5 & done 2>&1; echo started; wait`,
        cwd: ws,
        timeoutMs: 4_000,
        signal: new AbortController().signal,
      });
      expect(result.output).toMatch(/fork: (retry: )?Resource temporarily unavailable|Cannot fork/);
      expect(result.timedOut).toBe(true);
    } finally {
      sandbox.dispose();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const leftovers = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup"].some(
      (root) =>
        existsSync(root) &&
        readdirSync(root).some((name) => name.startsWith(`openinterpreter-${process.pid}-`)),
    );
    expect(leftovers).toBe(false);
  });

  it("a command killed while its sandbox is still starting leaves nothing running", async () => {
    const ws = mkdtempSync(path.join(os.tmpdir(), "oi-pids-"));
    const sandbox = createSandboxedExec({ env: buildChildEnv(process.env), whenUnavailable: "refuse" });
    const exec = sandbox.exec({ mode: "workspace-write", roots: [ws] });
    const marker = `oi-startup-kill-${process.pid}`;
    try {
      // Killed the moment its pid is known: bubblewrap is still building the namespaces then.
      for (let run = 0; run < 5; run++) {
        const stop = new AbortController();
        await exec.run({
          command: `exec -a ${marker} sleep 30`,
          cwd: ws,
          timeoutMs: 10_000,
          signal: stop.signal,
          onStart: () => stop.abort(),
        });
        expect(liveProcesses(marker), `run ${run}`).toEqual([]);
      }
    } finally {
      sandbox.dispose();
    }
  });

  it("removes the empty groups a process that is gone left behind, and nothing of a live one", async () => {
    const parent = path.dirname(path.dirname(probe!.procs));
    const dead = spawnSync("true").pid;
    const stale = path.join(parent, `openinterpreter-${dead}-1`);
    const live = path.join(parent, `openinterpreter-${process.pid}-999`);
    mkdirSync(stale);
    mkdirSync(live);
    const ws = mkdtempSync(path.join(os.tmpdir(), "oi-pids-"));
    const sandbox = createSandboxedExec({ env: buildChildEnv(process.env), whenUnavailable: "refuse" });
    try {
      const exec = sandbox.exec({ mode: "workspace-write", roots: [ws] });
      await exec.run({ command: "true", cwd: ws, timeoutMs: 10_000, signal: new AbortController().signal });
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(live)).toBe(true);
    } finally {
      sandbox.dispose();
      rmdirSync(live);
    }
  });
});
