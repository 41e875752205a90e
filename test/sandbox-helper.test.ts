// The confined helper (src/tools/sandbox/confined-helper.ts): commands forked inside one
// long-lived sandbox must stay as apart from each other and from the helper as commands that
// each had a sandbox of their own. Real bubblewrap, real cgroups (root only, as in CI).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import { ZOMBIE_LIMIT } from "../src/tools/exec/spawner/confine-helper.js";
import { spawnerPath } from "../src/tools/exec/spawner/spawner-path.js";
import { createPidsCgroup } from "../src/tools/sandbox/pids-cgroup.js";
import { createSandboxedExec, type ExecPolicy, PIDS_MAX } from "../src/tools/sandbox/sandboxed-exec.js";
import { needs } from "./support/requires.js";

const probe = await createPidsCgroup({ name: `openinterpreter-probe-${process.pid}`, max: 1 });
probe?.release();

/**
 * Host pids of the confined helpers this test process started (their command line ends in
 * `--confined`): other test files' daemons run helpers of their own meanwhile.
 */
function helpers(): number[] {
  const confined = readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const argv = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0");
        return argv.includes("--confined") && !argv[0]?.endsWith("bwrap");
      } catch {
        return false;
      }
    })
    .map(Number);
  // A helper's child between its fork and its exec still shows the helper's command line.
  return confined.filter((pid) => !confined.includes(parentOf(pid)) && startedHere(pid));
}

/** Whether this process is among `pid`'s ancestors (bwrap, which it forked, and bwrap's own child). */
function startedHere(pid: number): boolean {
  for (let at = parentOf(pid), hops = 0; at > 1 && hops < 4; at = parentOf(at), hops++) {
    if (at === process.pid) return true;
  }
  return false;
}

function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return 0;
  }
}

/**
 * The helper's waiting spare shells on the host, oldest first, with their pids inside the
 * sandbox, once the daemon has moved them into the pids cgroups of the next commands.
 */
function sparesOf(helper: number): { host: number; inner: number; group: string }[] {
  const children = readFileSync(`/proc/${helper}/task/${helper}/children`, "utf8").split(" ").filter(Boolean);
  const spares: { host: number; inner: number; group: string }[] = [];
  for (const child of children) {
    try {
      if (!readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").includes("-s")) continue;
      const group = /:pids:(.*\/openinterpreter-\d+-\d+)$/m.exec(
        readFileSync(`/proc/${child}/cgroup`, "utf8"),
      );
      const nspid = /^NSpid:\s+(\d+)\s+(\d+)$/m.exec(readFileSync(`/proc/${child}/status`, "utf8"));
      if (group?.[1] && nspid)
        spares.push({ host: Number(nspid[1]), inner: Number(nspid[2]), group: group[1] });
    } catch {
      // exited while we looked
    }
  }
  return spares;
}

const spareOf = (helper: number) => sparesOf(helper)[0];

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const waitFor = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return check();
};

(probe ? needs("bwrap").describe : describe.skip)("a confined helper per sandbox", () => {
  const base = mkdtempSync("/var/tmp/oi-helper-");
  const ws = path.join(base, "ws");
  const other = path.join(base, "other");
  const sandbox = createSandboxedExec({
    env: buildChildEnv(process.env),
    whenUnavailable: "refuse",
    perSessionHelper: true,
    helperScript: spawnerPath(),
  });
  const run = (command: string, policy: Partial<ExecPolicy> = {}, signal = new AbortController().signal) =>
    sandbox
      .exec({ mode: "workspace-write", roots: [ws], session: "s1", ...policy })
      .run({ command, cwd: policy.roots?.[0] ?? ws, timeoutMs: 10_000, signal });

  /**
   * A sandbox of the test's own whose helper is told apart by `marker` in its environment; its
   * commands run as the session named `marker`.
   */
  const ownSandbox = (marker: string, options: { helperIdleMs?: number } = {}) => {
    const sandbox = createSandboxedExec({
      env: { ...buildChildEnv(process.env), [marker]: "1" },
      whenUnavailable: "refuse",
      perSessionHelper: true,
      helperScript: spawnerPath(),
      ...options,
    });
    const policy: ExecPolicy = { mode: "workspace-write", roots: [ws], session: marker };
    return {
      sandbox,
      policy,
      run: (command: string) =>
        sandbox
          .exec(policy)
          .run({ command, cwd: ws, timeoutMs: 10_000, signal: new AbortController().signal }),
      helper: () =>
        helpers().find((pid) => readFileSync(`/proc/${pid}/environ`, "utf8").includes(`${marker}=`)),
    };
  };

  const waitingSpare = async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      await run("true");
      await pause(200);
      const [helper] = helpers();
      const spare = helper === undefined ? undefined : spareOf(helper);
      if (spare) return spare;
    }
    return undefined;
  };

  beforeAll(async () => {
    mkdirSync(ws);
    mkdirSync(other);
    // The first command starts the helper and runs in a sandbox of its own meanwhile.
    expect(await waitingSpare()).toBeDefined();
  });
  afterAll(() => {
    sandbox.dispose();
    rmSync(base, { recursive: true, force: true });
  });

  it("forks every command in the same helper, each with its own environment, cwd and group", async () => {
    const [helper] = helpers();
    const first = await run(
      "export LEAK=1; cd /; echo $PPID $(ps -o pgid= -p $$) $$; cat /proc/1/cmdline | tr '\\0' ' '",
    );
    const second = await run("printenv LEAK || echo none $PWD");
    expect(first.output).toContain("--confined");
    const [ppid, pgid, pid] = first.output.split("\n")[0]?.trim().split(/\s+/) ?? [];
    expect([ppid, pgid]).toEqual(["1", pid]);
    expect(second.output.trim()).toBe(`none ${ws}`);
    expect(helpers()).toEqual([helper]);
  });

  it("kills what a command left behind before the next one runs: it cannot write to its output", async () => {
    // The leftover writes into every stdout and stderr it can open, the helper's included.
    const left = await run(
      `(setsid sh -c 'while :; do for f in /proc/[0-9]*/fd/[012]; do echo INJECTED >"$f"; done 2>/dev/null; sleep 0.02; done' &); sleep 0.2; echo left`,
    );
    expect(left.output).toContain("left");
    const next = await run("sleep 0.5; echo clean");
    expect(next.output).toBe("clean\n");
    expect((await run("ps -e -o args= | grep -c '[w]hile :' || true")).output.trim()).toBe("0");
  });

  it("hands a command to the spare shell waiting in the helper, in the command's own cgroup", async () => {
    const [helper] = helpers();
    await run("true");
    // Moved ahead of time, while the session waits (for the model): the command pays no move.
    expect(await waitFor(() => sparesOf(helper as number).length === 2, 2_000)).toBe(true);
    const placed = sparesOf(helper as number);
    const groupOf = (pid: number) => /:pids:(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, "utf8"))?.[1];
    const pending = run("echo $$; sleep 0.4");
    await pause(200);
    for (const spare of placed) expect(groupOf(spare.host)).toBe(spare.group);
    const output = (await pending).output;
    const taker = placed.find((spare) => output === `${spare.inner}\n`);
    expect(taker).toBeDefined();
    expect(readFileSync(`/proc/${helper}/cgroup`, "utf8")).not.toMatch(/openinterpreter-/);
    // The next spares wait in groups of their own, not in the one that command ran in.
    expect(await waitFor(() => sparesOf(helper as number).length === 2, 2_000)).toBe(true);
    expect(sparesOf(helper as number).map((spare) => spare.group)).not.toContain(taker?.group);
  });

  it("keeps two spares placed, so that commands in a row each find one in its group", async () => {
    // A model that answers at once leaves less time between two commands than moving a fresh
    // spare into its group can take: the next command takes the one placed a command ago.
    const [helper] = helpers();
    await run("true");
    expect(await waitFor(() => sparesOf(helper as number).length === 2, 2_000)).toBe(true);
    const placed = sparesOf(helper as number);
    expect(new Set(placed.map((spare) => spare.group)).size).toBe(2);
    const outputs = [(await run("echo $$")).output, (await run("echo $$")).output];
    expect(outputs.sort()).toEqual(placed.map((spare) => `${spare.inner}\n`).sort());
  });

  it("keeps the waiting spare's descriptors from a running command", async () => {
    // The end of a command run beside this one forks the next spare, which waits while this one
    // still runs; the spare's stdin would take the next command's script.
    const pending = run(
      `sleep 0.5; for p in /proc/[0-9]*; do case "$(tr '\\0' ' ' <$p/cmdline 2>/dev/null)" in */[d]ash?-s*) echo FOUND; readlink $p/fd/0 && echo OPEN; (echo 'echo INJECTED' >$p/fd/0) 2>/dev/null && echo WROTE;; esac; done; echo checked`,
    );
    await pause(100);
    expect((await run("true")).exitCode).toBe(0);
    const probe = await pending;
    expect(probe.output).toContain("FOUND");
    expect(probe.output).toContain("checked");
    expect(probe.output).not.toMatch(/OPEN|WROTE/);
    await pause(100);
    expect((await run("echo clean")).output).toBe("clean\n");
  });

  it("forks a command the spare cannot take inside the command's own cgroup", async () => {
    // A name `export` refuses: the spare's one-line hand-over cannot carry this environment.
    const { sandbox: odd, run: oddRun, helper: oddHelper } = ownSandbox("ODD-NAME");
    try {
      // The first command starts the helper, and does not wait for it: a sandbox of its own.
      const first = await oddRun("tr '\\0' ' ' </proc/1/cmdline");
      expect(first.output).toMatch(/bwrap/);
      expect(first.output).not.toContain("--confined");
      expect(await waitFor(() => oddHelper() !== undefined, 2_000)).toBe(true);
      const helper = oddHelper();
      expect(await waitFor(() => spareOf(helper as number) !== undefined, 2_000)).toBe(true);
      const pending = oddRun("echo $$ >odd.pid; sleep 0.5; printenv ODD-NAME || env | grep -c ODD-NAME");
      expect(await waitFor(() => existsSync(path.join(ws, "odd.pid")), 2_000)).toBe(true);
      const inner = readFileSync(path.join(ws, "odd.pid"), "utf8").trim();
      const host = readFileSync(`/proc/${helper}/task/${helper}/children`, "utf8")
        .split(" ")
        .find(
          (pid) =>
            pid &&
            new RegExp(`^NSpid:\\s+${pid}\\s+${inner}$`, "m").test(
              readFileSync(`/proc/${pid}/status`, "utf8"),
            ),
        );
      expect(readFileSync(`/proc/${host}/cgroup`, "utf8")).toMatch(/:pids:.*\/openinterpreter-\d+-\d+$/m);
      expect((await pending).output).toBe("1\n");
    } finally {
      odd.dispose();
    }
  });

  it("passes a flood through the helper bounded, with exact totals", async () => {
    const result = await run("head -c 20000000 /dev/zero | tr '\\0' x; echo; echo end");
    expect(result.exitCode).toBe(0);
    expect(result.totalBytes).toBe(20_000_000 + 5);
    expect(result.droppedBytes).toBeGreaterThan(18_000_000);
    expect(result.output.endsWith("x\nend\n")).toBe(true);
  });

  it("keeps its descriptors, memory map and environment from the commands", async () => {
    const result = await run(
      "for f in fd/0 fd/1 fd/2 task/1/fd/1; do readlink /proc/1/$f && echo OPEN $f; done; for f in environ maps; do head -c1 /proc/1/$f >/dev/null && echo OPEN $f; done; echo checked",
    );
    expect(result.output).toContain("checked");
    expect(result.output).not.toContain("OPEN");
    expect(result.output).toMatch(/Permission denied/);
  });

  it("ignores every signal a command sends it, while another command runs", async () => {
    const [helper] = helpers();
    const busy = run("sleep 1; echo survived");
    // SIGUSR1 would open node's inspector, a TCP port from which to run code in the helper.
    const signals = await run(
      "for s in $(seq 1 31) STOP; do kill -$s 1; done; sleep 0.3; (echo >/dev/tcp/127.0.0.1/9229) 2>/dev/null && echo INSPECTOR; echo sent",
    );
    expect(signals.output).toBe("sent\n");
    expect((await busy).output).toBe("survived\n");
    expect(helpers()).toEqual([helper]);
  });

  it("reports a command failed when its helper is killed, and the next command works", async () => {
    const [helper] = helpers();
    const started = Date.now();
    const pending = run("sleep 5; echo finished");
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(helper as number, "SIGKILL");
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).not.toContain("finished");
    expect(result.output).toMatch(/spawn helper .* exited/);
    const next = await run("echo again");
    expect(next.output).toBe("again\n");
    expect(helpers()).not.toContain(helper);
  });

  it("is replaced once the orphans it cannot reap pile up", async () => {
    await waitingSpare(); // the helper the previous test's next command started is up
    const [before] = helpers();
    // Each orphan is re-parented to the helper, the sandbox's pid 1, and stays a zombie there.
    const orphans = await run(
      `for i in $(seq ${ZOMBIE_LIMIT + 8}); do (sleep 0.01 &); done; sleep 0.3; echo left`,
    );
    expect(orphans.output).toBe("left\n");
    expect((await run("echo next")).output).toBe("next\n");
    expect(await waitFor(() => !helpers().includes(before as number), 2_000)).toBe(true);
    expect((await run("echo after")).output).toBe("after\n");
    expect(await waitFor(() => helpers().length === 1, 2_000)).toBe(true);
  });

  it("caps each command's processes, forked by the helper or handed to its spare", async () => {
    for (const handed of [false, true]) {
      // After a pause, the helper's spare takes the command (the first bomb's orphans pile up
      // as zombies in its helper, which is replaced once idle: wait for the new one's spare).
      const spare = handed ? await waitingSpare() : undefined;
      const result = await run(
        `echo $$; for i in $(seq ${PIDS_MAX * 2}); do sleep 5 & done 2>&1; echo started; wait`,
      );
      expect(result.output).toMatch(/fork: (retry: )?Resource temporarily unavailable|Cannot fork/);
      if (handed) expect(result.output.split("\n")[0]).toBe(String(spare?.inner));
    }
    expect((await run("echo next")).output).toBe("next\n");
  }, 30_000);

  it("is replaced when the roots change, and stops with the session", async () => {
    const [before] = helpers();
    expect((await run("echo other", { roots: [other] })).output).toBe("other\n");
    expect(await waitFor(() => !helpers().includes(before as number), 2_000)).toBe(true);
    expect(await waitFor(() => helpers().length === 1, 2_000)).toBe(true);
    sandbox.release("s1");
    expect(await waitFor(() => helpers().length === 0, 2_000)).toBe(true);
  });

  it("starts a session's helper when its turn begins: the first command already runs in it", async () => {
    const { sandbox: early, policy, run: earlyRun, helper: earlyHelper } = ownSandbox("EARLY_HELPER");
    try {
      // A turn without a sandbox starts none.
      early.warm({ ...policy, mode: "full-access" });
      await pause(300);
      expect(earlyHelper()).toBeUndefined();
      early.warm(policy);
      expect(await waitFor(() => earlyHelper() !== undefined, 2_000)).toBe(true);
      expect(await waitFor(() => sparesOf(earlyHelper() as number).length === 2, 2_000)).toBe(true);
      expect((await earlyRun("tr '\\0' ' ' </proc/1/cmdline")).output).toContain("--confined");
    } finally {
      early.dispose();
    }
  });

  it("stops a helper no command asked for in a while; the next command starts another", async () => {
    // Five times the pause between commands: a command slowed by a loaded machine must not
    // leave a gap long enough to stop the helper.
    const {
      sandbox: idle,
      run: idleRun,
      helper: idleHelper,
    } = ownSandbox("IDLE_HELPER", {
      helperIdleMs: 1_500,
    });
    try {
      expect((await idleRun("echo one")).output).toBe("one\n");
      expect(await waitFor(() => idleHelper() !== undefined, 2_000)).toBe(true);
      const first = idleHelper();
      // Commands keep it alive: each asks for it before the idle time has passed.
      for (let i = 0; i < 4; i++) {
        await pause(300);
        expect((await idleRun("echo busy")).output).toBe("busy\n");
      }
      expect(idleHelper()).toBe(first);
      expect(await waitFor(() => idleHelper() === undefined, 5_000)).toBe(true);
      expect((await idleRun("echo two")).output).toBe("two\n");
      expect(await waitFor(() => idleHelper() !== undefined, 2_000)).toBe(true);
      expect(idleHelper()).not.toBe(first);
    } finally {
      idle.dispose();
    }
  });
});
