import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import { createLocalExec } from "../src/tools/exec/run-command.js";
import { createSpawner } from "../src/tools/exec/spawner/spawner-client.js";
import { spawnerPath } from "../src/tools/exec/spawner/spawner-path.js";
import { createPidsCgroup } from "../src/tools/sandbox/pids-cgroup.js";
import type { ExecRequest } from "../src/tools/types.js";

const workDir = mkdtempSync(join(tmpdir(), "oi-spawner-"));
const spawner = createSpawner();
afterAll(() => {
  spawner.dispose();
  rmSync(workDir, { recursive: true, force: true });
});

const exec = createLocalExec({ env: buildChildEnv(process.env), spawn: spawner.spawn });

function request(command: string, fields: Partial<ExecRequest> = {}): ExecRequest {
  return { command, cwd: workDir, timeoutMs: 20_000, signal: new AbortController().signal, ...fields };
}

function run(command: string, fields: Partial<ExecRequest> = {}) {
  return exec.run(request(command, fields));
}

const sha = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Pids (not zombies) whose command line contains `marker`. */
function processesWith(marker: string): number[] {
  return readdirSync("/proc")
    .filter((name) => {
      try {
        return (
          /^\d+$/.test(name) &&
          readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker) &&
          alive(Number(name))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** Where there is no dash, the helper keeps no spare and starts every command the ordinary way. */
const HAVE_DASH = ["/usr/bin/dash", "/bin/dash"].some((file) => existsSync(file));

/** The dash a helper keeps waiting for its next command (spare-shell.ts), once there is one. */
async function spareOf(helper: number): Promise<number | undefined> {
  if (!HAVE_DASH) return undefined;
  const spares = () =>
    readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .filter((name) => {
        try {
          const stat = readFileSync(`/proc/${name}/stat`, "utf8");
          return /^\d+ \(dash\) [^Z] /.test(stat) && Number(stat.split(" ")[3]) === helper;
        } catch {
          return false;
        }
      })
      .map(Number);
  await waitFor(() => spares().length === 1, "the helper's spare shell");
  return spares()[0]!;
}

/** A bash script printing what the process running it was started with. */
const SELF_REPORT = [
  // Before any $(...): bash holds that pipe open while it reads it.
  "if [ -e /proc/$$/fd/3 ]; then fd3=open; else fd3=closed; fi",
  "read -r _ _ _ ppid pgid sid _ < /proc/$$/stat",
  'echo "pid=$$ ppid=$ppid pgid=$pgid sid=$sid"',
  'echo "stdin=$(readlink /proc/$$/fd/0) fd3=$fd3"',
  'echo "cwd=$(pwd -P)"',
  // Not the script's last command, which bash would exec in place of itself.
  "echo environ:; cat /proc/$$/environ; exit 0",
].join("\n");

function parseReport(output: string) {
  const [head = "", environ = ""] = output.split("environ:\n");
  const fields = Object.fromEntries([...head.matchAll(/(\w+)=(\S*)/g)].map((m) => [m[1], m[2]]));
  const env = Object.fromEntries(
    environ
      .split("\0")
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  return { ...fields, env };
}

// Where this machine lets the tests make pids cgroups (root, or a delegated subtree).
const groupProbe = await createPidsCgroup({ name: `oi-spawner-probe-${process.pid}`, max: 1 });
groupProbe?.release();
const groupsWork = groupProbe !== undefined;

describe("spawnerPath", () => {
  const repo = resolve(import.meta.dirname, "..");
  it("finds dist/spawner.js from the snapshot blob, the ESM bundle and the sources", () => {
    const dist = join(repo, "dist");
    const snapshot = ["--snapshot-blob", join(dist, "snapshot.blob")];
    expect(spawnerPath({ execArgv: snapshot, moduleUrl: undefined })).toBe(join(dist, "spawner.js"));
    expect(spawnerPath({ execArgv: [], moduleUrl: pathToFileURL(join(dist, "chunk-ABC.js")).href })).toBe(
      join(dist, "spawner.js"),
    );
    // What vitest runs here: the sources, served by the dist/ the global setup built.
    expect(spawnerPath()).toBe(join(dist, "spawner.js"));
    expect(existsSync(spawnerPath())).toBe(true);
  });
});

describe("commands through the spawn helper", () => {
  it("passes binary and large output through intact, stdout and stderr apart", async () => {
    const script = join(workDir, "emit.js");
    // 3 MiB of every byte value on stdout (the command keeps the first and last 64 KiB), a
    // marker on stderr in between.
    execFileSync("sh", ["-c", `cat > ${script}`], {
      input: [
        "const b = Buffer.alloc(3 * 1024 * 1024); for (let i = 0; i < b.length; i++) b[i] = (i * 7) & 255;",
        "process.stdout.write(b.subarray(0, 1 << 20), () => { process.stderr.write('MIDDLE\\n');",
        "process.stdout.write(b.subarray(1 << 20)); });",
      ].join("\n"),
    });
    const file = join(workDir, "out.bin");
    const result = await run(
      `node ${script} 2>/dev/null | tee ${file} | wc -c; node ${script} 2>&1 >/dev/null`,
    );
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe(`${3 * 1024 * 1024}\nMIDDLE\n`);
    const expected = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < expected.length; i++) expected[i] = (i * 7) & 255;
    expect(sha(readFileSync(file))).toBe(sha(expected));

    // Raw bytes straight through the helper: every byte value, 2 MiB, with stderr interleaved.
    const child = spawner.spawn("node", [script], { cwd: workDir, env: buildChildEnv(process.env) });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => err.push(chunk));
    const [code] = await new Promise<unknown[]>((done) => child.on("close", (...args) => done(args)));
    expect(code).toBe(0);
    expect(sha(Buffer.concat(out))).toBe(sha(expected));
    expect(Buffer.concat(err).toString()).toBe("MIDDLE\n");
  });

  it("keeps many concurrent commands apart", async () => {
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        run(
          `for j in 1 2 3; do echo out-${i}-$j; echo err-${i}-$j >&2; sleep 0.0${i % 5}; done; exit ${i % 7}`,
        ),
      ),
    );
    results.forEach((result, i) => {
      expect(result.exitCode).toBe(i % 7);
      for (const j of [1, 2, 3]) {
        expect(result.output).toContain(`out-${i}-${j}\n`);
        expect(result.output).toContain(`err-${i}-${j}\n`);
      }
      expect(result.output.match(/(out|err)-(\d+)-/g)?.every((m) => m.endsWith(`-${i}-`))).toBe(true);
    });
  });

  it("reports exit codes, signals, timeouts and aborts", async () => {
    expect((await run("exit 3")).exitCode).toBe(3);
    const killed = await run("kill -TERM $$");
    expect(killed).toMatchObject({ exitCode: null, signal: "SIGTERM" });
    const timedOut = await run("sleep 30", { timeoutMs: 300 });
    expect(timedOut.timedOut).toBe(true);
    const controller = new AbortController();
    const aborted = run("echo started; sleep 30", {
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    expect((await aborted).aborted).toBe(true);
    // Aborted before the helper even answered with a pid.
    const early = new AbortController();
    const pending = run("sleep 30; echo never", { signal: early.signal });
    early.abort();
    const result = await pending;
    expect(result.aborted).toBe(true);
    expect(result.output).not.toContain("never");
  });

  it("kills the whole tree on abort, a setsid grandchild included", async () => {
    const controller = new AbortController();
    const pending = run("setsid sleep 31.73 & sleep 31.71 & echo up; wait", {
      signal: controller.signal,
      onOutput: () => controller.abort(),
    });
    expect((await pending).aborted).toBe(true);
    await waitFor(() => processesWith("31.7").length === 0, "the tree to be gone");
  });

  it("answers commands that cannot start", async () => {
    const missingCwd = await run("true", { cwd: join(workDir, "missing") });
    expect(missingCwd.exitCode).toBe(127);
    expect(missingCwd.output).toContain("missing");
    const noShell = createLocalExec({
      env: buildChildEnv(process.env),
      spawn: spawner.spawn,
      shell: "/no/such/sh",
    });
    const enoent = await noShell.run(request("true"));
    expect(enoent.exitCode).toBe(127);
    expect(enoent.output).toContain("ENOENT");
    expect((await run("echo a\0b")).exitCode).toBe(127);
    expect((await run("echo still works")).output).toBe("still works\n");
  });

  it("gives the helper none of the daemon's environment", async () => {
    await run("true");
    // Default: nothing at all.
    expect(readFileSync(`/proc/${spawner.pid}/environ`, "utf8")).toBe("");
    // The runtime's: what commands get anyway (they can read /proc/$PPID/environ), no secret.
    const secret = `sk-test-${randomBytes(8).toString("hex")}`;
    const daemonEnv = { ...process.env, OPENAI_API_KEY: secret, GITHUB_TOKEN: secret };
    const childEnv = buildChildEnv(daemonEnv);
    const own = createSpawner({ env: childEnv });
    try {
      const ownExec = createLocalExec({ env: childEnv, spawn: own.spawn });
      const parent = await ownExec.run(request("cat /proc/$PPID/environ | tr '\\0' '\\n'"));
      expect(parent.exitCode).toBe(0);
      const environ = readFileSync(`/proc/${own.pid}/environ`, "utf8");
      expect(environ).not.toContain(secret);
      expect(environ.split("\0").filter(Boolean).sort()).toEqual(
        Object.entries(childEnv)
          .map(([name, value]) => `${name}=${value}`)
          .sort(),
      );
      expect(parent.output).toContain(`PATH=${childEnv.PATH}`);
      expect(parent.output).not.toContain(secret);
    } finally {
      own.dispose();
    }
    // Commands still get theirs, from the request.
    expect((await run("echo $NO_COLOR")).output).toBe("1\n");
  });

  it.skipIf(!HAVE_DASH)(
    "starts a command in the dash it forked ahead of time, as an ordinary spawn would",
    async () => {
      const helper = spawner.pid as number;
      const spare = (await spareOf(helper)) as number;
      const env = { ...buildChildEnv(process.env), TRICKY: 'it\'s\n$HOME `id` "q"' };
      const result = await createLocalExec({ env, spawn: spawner.spawn }).run(request(SELF_REPORT));
      expect(result.exitCode).toBe(0);
      const report = parseReport(result.output);
      expect(report).toMatchObject({ pid: String(spare), ppid: String(helper), pgid: String(spare) });
      expect(report).toMatchObject({ sid: String(spare), stdin: "/dev/null", fd3: "closed" });
      expect(report.cwd).toBe(realpathSync(workDir));
      expect(report.env).toEqual(env);
      // The next one is forked once the helper is idle.
      expect(await spareOf(helper)).not.toBe(spare);
    },
  );

  it.skipIf(!HAVE_DASH)(
    "hands a command from the spare the same descriptors as an ordinary spawn",
    async () => {
      const helper = spawner.pid as number;
      const fds = (env: Record<string, string>) =>
        new Promise<{ pid: number; fds: string }>((resolve) => {
          const child = spawner.spawn("/bin/ls", ["-l", "/proc/self/fd"], { cwd: workDir, env });
          let out = "";
          child.stdout?.on("data", (chunk: Buffer) => {
            out += chunk.toString();
          });
          // Each line's target, the socket and pipe numbers aside.
          const targets = () =>
            out
              .split("\n")
              .map((line) => line.replace(/.*\d\d:\d\d /, "").replace(/\[\d+\]|\/proc\/\d+/g, ""));
          child.on("close", () => resolve({ pid: child.pid as number, fds: targets().sort().join("\n") }));
        });
      const spare = (await spareOf(helper)) as number;
      const fromSpare = await fds({ PATH: "/usr/bin:/bin" });
      const ordinary = await fds({ PATH: "/usr/bin:/bin", "NOT.A.SHELL.NAME": "1" });
      expect(fromSpare.pid).toBe(spare);
      expect(ordinary.pid).not.toBe(spare);
      expect(fromSpare.fds).toBe(ordinary.fds);
      expect(fromSpare.fds).toContain("0 -> /dev/null");
    },
  );

  it.skipIf(!HAVE_DASH)(
    "starts what a script cannot carry the ordinary way, and keeps the spare",
    async () => {
      const helper = spawner.pid as number;
      const spare = (await spareOf(helper)) as number;
      const env = { ...buildChildEnv(process.env), "NOT.A.SHELL.NAME": "1" };
      const report = parseReport(
        (await createLocalExec({ env, spawn: spawner.spawn }).run(request(SELF_REPORT))).output,
      );
      expect(report.pid).not.toBe(String(spare));
      expect(report.env).toEqual(env);
      expect(alive(spare)).toBe(true);
      // A spare that died is replaced, and the command meanwhile starts the ordinary way.
      process.kill(spare, "SIGKILL");
      await waitFor(() => !existsSync(`/proc/${spare}`), "the helper to see the spare die");
      expect((await run("echo still")).output).toBe("still\n");
      expect(await spareOf(helper)).not.toBe(spare);
    },
  );

  it("fails the commands in flight when the helper dies, and the next command works", async () => {
    const marker = join(workDir, "ran-after-crash");
    let started = () => {};
    const output = new Promise<void>((resolve) => {
      started = resolve;
    });
    const running = run(`echo before; sleep 30; touch ${marker}`, { onOutput: () => started() });
    await output;
    const helper = spawner.pid as number;
    const spare = await spareOf(helper);
    process.kill(helper, "SIGKILL");
    const result = await running;
    expect(result.signal).toBe("SIGKILL");
    expect(result.output).toContain("before");
    expect(result.output).toMatch(
      /spawn helper \(.*spawner\.js\) exited \(SIGKILL\); the command was killed/,
    );
    // The spare reads EOF once nobody holds its stdin, and ends.
    const gone = (pid: number | undefined) => pid === undefined || !alive(pid);
    await waitFor(() => gone(helper) && gone(spare), "the helper and its spare to be gone");
    const next = await run("echo after");
    expect(next.output).toBe("after\n");
    expect(spawner.pid).not.toBe(helper);
    expect(existsSync(marker)).toBe(false);
  });

  it("ends with the daemon's pipe and kills the commands it still runs", async () => {
    const own = createSpawner();
    const child = own.spawn("bash", ["-c", "setsid sleep 41.3 & sleep 41.2; true"], {
      cwd: workDir,
      env: buildChildEnv(process.env),
    });
    await new Promise((r) => child.once("spawn", r));
    // Both sleeps running (the command line is the program's own, not bash's any more).
    await waitFor(() => processesWith("sleep\x0041.").length === 2, "the command's sleeps");
    const helper = own.pid as number;
    const pid = child.pid as number;
    expect(alive(pid)).toBe(true);
    const spare = await spareOf(helper);
    const closed = new Promise<unknown[]>((done) => child.on("close", (...args) => done(args)));
    own.dispose();
    expect(await closed).toEqual([null, "SIGKILL"]);
    await waitFor(
      () => !alive(helper) && !alive(pid) && (spare === undefined || !alive(spare)),
      "the helper, its command and spare to end",
    );
    // The setsid one too, which had left the command's process group.
    await waitFor(() => processesWith("sleep\x0041.").length === 0, "the escaped sleep to end");
  });

  // The sandbox's launcher needs both: bwrap reads its seccomp program from fd 3, and the
  // command must start inside its pids cgroup (no shell in front of bwrap does either any more).
  // Through the helper, each starts from its spare shell (the ordinary spawn is covered above).
  describe.each([
    ["the helper", "helper", () => spawner.spawn, () => spareOf(spawner.pid as number)],
    ["in-process", "here", () => undefined, async (): Promise<number | undefined> => undefined],
  ])("through %s", (_, tag, spawnWith, nextPid) => {
    it("gives a command a file as fd 3, from its start every time", async () => {
      const file = join(workDir, "fd3.bin");
      writeFileSync(file, "program bytes");
      const withFd3 = createLocalExec({
        env: buildChildEnv(process.env),
        spawn: spawnWith(),
        launch: { fd3File: file },
      });
      for (let i = 0; i < 2; i++) {
        const pid = await nextPid();
        const result = await withFd3.run(request('cat <&3; echo " $$"'));
        expect(result.output).toMatch(/^program bytes \d+\n$/);
        if (pid) expect(result.output).toBe(`program bytes ${pid}\n`);
      }
      expect((await run("cat <&3")).output).toMatch(/Bad file descriptor/);
      const missing = createLocalExec({ spawn: spawnWith(), launch: { fd3File: join(workDir, "nope") } });
      const refused = await missing.run(request("true"));
      expect(refused.exitCode).toBe(127);
      expect(refused.output).toContain("ENOENT");
    });

    const name = `oi-spawner-test-${process.pid}-${tag}`;
    it.skipIf(!groupsWork)("starts a command inside a cgroup and stays out of it itself", async () => {
      const group = await createPidsCgroup({ name, max: 64 });
      const inGroup = createLocalExec({
        env: buildChildEnv(process.env),
        spawn: spawnWith(),
        launch: { cgroupProcs: group!.procs },
      });
      const pid = await nextPid();
      const result = await inGroup.run(request('cat /proc/$$/cgroup; echo "pid=$$"'));
      expect(result.output).toContain(name);
      if (pid) expect(result.output).toContain(`pid=${pid}`);
      for (const pid of [process.pid, spawner.pid as number]) {
        expect(readFileSync(`/proc/${pid}/cgroup`, "utf8")).not.toContain(name);
      }
      group!.release();
    });
  });
});
