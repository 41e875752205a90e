// The escape battery of security.md §2.3/§2.6 and §5.1 (S01–S12, K01), run through the real
// sandboxed exec port and real bubblewrap. Shared by the in-process tests and by the daemon
// stand-in that test/sandbox-escape.test.ts bundles and starts as root and as nobody with
// canary secrets in its own environment. Plain node:assert, so it runs outside vitest too.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import {
  createSandboxedExec,
  type ExecPolicy,
  type SandboxedExec,
} from "../src/tools/sandbox/sandboxed-exec.js";
import {
  CANARIES,
  type Check,
  type Fixture,
  inHelper,
  listen,
  makeFixture,
  port,
  runAll,
  SECRET_FILE,
  sleepers,
  survivors,
  waitFor,
} from "./sandbox-fixture.js";

export { CANARIES, type Check, inHelper, runAll };

export interface Battery {
  fixture: Fixture;
  sandbox: SandboxedExec;
  checks: Check[];
  close(): Promise<void>;
}

/**
 * Builds the fixture under `/var/tmp` (not `/tmp`, which is a private tmpfs inside the sandbox
 * and would make "outside" writes vanish instead of fail), a TCP listener on both loopbacks and a
 * Unix socket server, and the checks. `parentEnv` plays the daemon's environment; with
 * `helperScript` (dist/spawner.js) the commands fork in a confined helper per sandbox.
 */
export async function setupBattery(
  parentEnv: Record<string, string | undefined>,
  helperScript?: string,
): Promise<Battery> {
  const base = mkdtempSync("/var/tmp/oi-sbx-");
  chmodSync(base, 0o755);
  const fixture = makeFixture(base);
  const sandbox = createSandboxedExec({
    env: buildChildEnv(parentEnv),
    whenUnavailable: "refuse",
    home: fixture.home,
    hidden: [fixture.daemonHome],
    visibleInHome: [],
    perSessionHelper: helperScript !== undefined,
    ...(helperScript ? { helperScript } : {}),
  });
  const tcp4 = await listen(
    net.createServer((c) => c.end("HOST-TCP\n")),
    { host: "127.0.0.1", port: 0 },
  );
  const tcp6 = await listen(
    net.createServer((c) => c.end("HOST-TCP\n")),
    { host: "::1", port: 0 },
  ).catch(() => undefined);
  const socketPath = path.join(fixture.outside, "host.sock");
  const unix = await listen(
    net.createServer((c) => c.end("HOST-UNIX\n")),
    { path: socketPath },
  );
  const ports = { v4: port(tcp4), v6: tcp6 && port(tcp6) };
  const checks = makeChecks({ fixture, sandbox, ports, socketPath });
  return {
    fixture,
    sandbox,
    checks,
    async close() {
      sandbox.dispose();
      for (const server of [tcp4, tcp6, unix]) server?.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

interface CheckContext {
  fixture: Fixture;
  sandbox: SandboxedExec;
  ports: { v4: number; v6: number | undefined };
  socketPath: string;
}

function makeChecks(context: CheckContext): Check[] {
  const { fixture: f, sandbox, ports, socketPath } = context;
  const roots = [f.workspace, f.homeRoot];
  const sh = (command: string, policy: Partial<ExecPolicy> = {}, signal = new AbortController().signal) =>
    sandbox
      .exec({ mode: "workspace-write", roots, ...policy })
      .run({ command, cwd: f.workspace, timeoutMs: 20_000, signal });
  /** Runs each probe as `probe; echo "rc=$?"` and returns the rc lines. */
  const rcs = async (commands: string[], policy: Partial<ExecPolicy> = {}) => {
    const result = await sh(commands.map((c) => `{ ${c} ; } 2>&1; echo "rc=$?"`).join("\n"), policy);
    assert.equal(result.exitCode, 0, result.output);
    return { codes: [...result.output.matchAll(/^rc=(\d+)$/gm)].map((m) => Number(m[1])), result };
  };
  const allFail = async (commands: string[], policy: Partial<ExecPolicy> = {}) => {
    const { codes, result } = await rcs(commands, policy);
    assert.equal(codes.length, commands.length, result.output);
    codes.forEach((code, i) => {
      assert.notEqual(code, 0, `${commands[i]} succeeded:\n${result.output}`);
    });
    return result;
  };
  const noCanary = (text: string) => {
    for (const value of [...Object.values(CANARIES), SECRET_FILE]) {
      assert.ok(!text.includes(value), `canary ${value} leaked:\n${text.slice(0, 2000)}`);
    }
  };
  const hostText = (p: string) => readFileSync(p, "utf8");
  /** Seven digits, so no run's marker is a prefix of another's. */
  const marker = () => String(9_000_000 + (randomBytes(4).readUInt32LE(0) % 1_000_000));

  return [
    {
      id: "S01",
      title: "writes to /etc, /usr, a sibling of the workspace and its parent are denied",
      async run() {
        const tag = `oi-${randomBytes(4).toString("hex")}`;
        const targets = [`/etc/${tag}`, `/usr/${tag}`, path.join(f.outside, tag), path.join(f.base, tag)];
        const result = await allFail(targets.map((t) => `echo x > ${t}`));
        assert.match(result.output, /Read-only file system|Permission denied/);
        for (const t of targets) assert.ok(!existsSync(t), `${t} exists on the host`);
        // The home is an empty tmpfs: a write there succeeds inside and never reaches the host.
        await sh(`echo evil >> ${f.home}/.bashrc; echo x > ${f.home}/${tag}`);
        assert.equal(hostText(path.join(f.home, ".bashrc")), "# original\n");
        assert.ok(!existsSync(path.join(f.home, tag)));
      },
    },
    {
      id: "S02",
      title: "remount, new mounts, umount of a hiding mount and pivot_root are denied",
      async run() {
        await allFail([
          "mount -o remount,rw /",
          "mount -t tmpfs none /mnt",
          `umount ${f.home}`,
          `umount ${f.daemonHome}`,
          "umount -l /tmp",
          "cd / && pivot_root . mnt",
        ]);
      },
    },
    {
      id: "S03",
      title: "nested user namespaces and a nested bwrap are denied",
      async run() {
        const result = await allFail([
          "unshare -Urm true",
          "unshare -r true",
          "unshare -n true",
          "bwrap --ro-bind / / true",
        ]);
        assert.match(result.output, /No space left on device|Operation not permitted|Permission denied/);
      },
    },
    {
      id: "S04",
      title: "no capabilities, no_new_privs set",
      async run() {
        const { output } = await sh(
          "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status",
        );
        for (const cap of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]) {
          assert.match(output, new RegExp(`^${cap}:\\s+0{16}$`, "m"), output);
        }
        assert.match(output, /^NoNewPrivs:\s+1$/m);
        if (process.arch === "x64" || process.arch === "arm64") assert.match(output, /^Seccomp:\s+2$/m);
      },
    },
    {
      id: "S05",
      title: "no network: host loopback (bash, node, curl, IPv6), DNS, metadata IP all fail fast",
      async run() {
        const node = process.execPath;
        const probes = [
          `exec 3<>/dev/tcp/127.0.0.1/${ports.v4}; cat <&3`,
          `${node} -e 'require("net").connect(${ports.v4},"127.0.0.1").on("data",d=>process.stdout.write(d)).on("error",e=>{console.log(e.code);process.exit(1)})'`,
          `curl -sS --max-time 2 http://127.0.0.1:${ports.v4}/`,
          "getent hosts example.com",
          "getent ahosts github.com",
          "exec 3<>/dev/tcp/169.254.169.254/80",
          ...(ports.v6 === undefined ? [] : [`exec 3<>/dev/tcp/::1/${ports.v6}; cat <&3`]),
        ];
        const started = Date.now();
        const result = await allFail(probes);
        assert.ok(!result.output.includes("HOST-TCP"), result.output);
        assert.ok(Date.now() - started < 10_000, `network probes took ${Date.now() - started} ms`);
        // The same probe with the network shared reaches the listener: the check can fail.
        const shared = await sh(`exec 3<>/dev/tcp/127.0.0.1/${ports.v4}; cat <&3`, { network: true });
        assert.match(shared.output, /HOST-TCP/);
      },
    },
    {
      id: "S06",
      title: ".git (directory, nested, worktree file and its target) and the daemon's home are protected",
      async run() {
        const before = hostText(path.join(f.workspace, ".git/config"));
        const result = await allFail([
          "echo evil >> .git/config",
          "echo evil > .git/hooks/pre-commit",
          "mv .git .git-moved",
          "rm -rf .git",
          "ln -sfn /tmp .git",
          "echo evil >> sub/nested/.git/config",
          `echo 'gitdir: /tmp' > ${f.homeRoot}/.git`,
          `echo evil > ${f.worktreeGitDir}/HEAD`,
          `echo evil > ${path.join(f.home, "main/.git/config")}`,
          `cat ${f.daemonHome}/config.toml`,
        ]);
        noCanary(result.output);
        assert.equal(hostText(path.join(f.workspace, ".git/config")), before);
        assert.ok(!existsSync(path.join(f.workspace, ".git/hooks/pre-commit")));
        assert.ok(!existsSync(path.join(f.workspace, ".git-moved")));
        assert.match(hostText(path.join(f.homeRoot, ".git")), /^gitdir: /);
        // The worktree still works read-only: its git directory is readable inside.
        const read = await sh(
          `cat ${f.homeRoot}/.git ${f.worktreeGitDir}/HEAD ${f.worktreeGitDir}/commondir`,
        );
        assert.equal(read.exitCode, 0, read.output);
        assert.match(read.output, /ref: refs\/heads\/wt/);
      },
    },
    {
      id: "S07",
      title: "a symlink or hard link from the workspace to outside does not allow a write",
      async run() {
        await allFail([
          "echo evil > link-out",
          `ln ${f.outside}/target.txt hard-out && echo evil > hard-out`,
          `ln -s ${f.outside} dir-out && echo evil > dir-out/new.txt`,
        ]);
        assert.equal(hostText(path.join(f.outside, "target.txt")), "outside original\n");
        assert.ok(!existsSync(path.join(f.outside, "new.txt")));
      },
    },
    {
      id: "S08",
      title: "credentials under the home are not readable (also through a planted .git pointer)",
      async run() {
        const files = [".ssh/id_rsa", ".aws/credentials", ".netrc", ".npmrc", "main/notes.txt"];
        const result = await sh(
          [
            ...files.map((file) => `cat ${path.join(f.home, file)}`),
            `ls -la ${f.home}`,
            "cat evil/.git",
          ].join("; "),
        );
        noCanary(result.output);
        assert.match(result.output, /No such file or directory/);
      },
    },
    {
      id: "S09",
      title: "/proc/1/environ, /proc/$PPID/environ, every readable environ and cmdline hold no canary",
      async run() {
        const result = await sh(
          [
            "cat /proc/1/environ /proc/$PPID/environ",
            `cat /proc/${process.pid}/environ /proc/${process.pid}/cmdline`,
            "for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do cat $f; echo; done",
            "setsid sh -c 'cat /proc/1/environ; env'",
          ].join("; "),
        );
        noCanary(result.output);
        assert.match(result.output, /PATH=/, "the check read nothing");
      },
    },
    {
      id: "S10",
      title: "host processes are invisible and cannot be signalled",
      async run() {
        const result = await sh(`ls /proc | grep -c '^[0-9]'; kill -0 ${process.pid}; echo "kill=$?"`);
        const visible = Number(result.output.split("\n")[0]);
        assert.ok(visible > 0 && visible < 10, `${visible} processes visible:\n${result.output}`);
        assert.match(result.output, /kill=1/);
      },
    },
    {
      id: "S11",
      title: "mknod, chroot, /proc/sys and /sys writes are denied",
      async run() {
        await allFail([
          "mknod ./null-dev c 1 3",
          "chroot / true",
          "echo 1 > /proc/sys/kernel/sysrq",
          "echo 1 > /sys/kernel/profiling",
          "hostname evil",
        ]);
        assert.ok(!existsSync(path.join(f.workspace, "null-dev")));
      },
    },
    {
      id: "S12",
      title: "Unix sockets of the host are not reachable",
      async run() {
        const node = process.execPath;
        const result = await allFail([
          `${node} -e 'require("net").connect(${JSON.stringify(socketPath)}).on("data",d=>process.stdout.write(d)).on("error",e=>{console.log(e.code);process.exit(1)})'`,
          `python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(${JSON.stringify(socketPath)}); print(s.recv(64))'`,
        ]);
        assert.ok(!result.output.includes("HOST-UNIX"), result.output);
        // Pipes and socketpair (Node's IPC channel) still work.
        const child = `require("child_process").spawn(process.execPath,["-e","process.send(42)"],{stdio:["ignore","inherit","inherit","ipc"]}).on("message",m=>console.log("ipc",m))`;
        const ipc = await sh(`${node} -e '${child}'`);
        assert.match(ipc.output, /ipc 42/);
      },
    },
    {
      id: "K01",
      title: "twenty canaries reach no child: env, printenv, node, python, a setsid grandchild",
      async run() {
        const node = process.execPath;
        const result = await sh(
          [
            "env",
            "printenv",
            `${node} -e 'console.log(JSON.stringify(process.env))'`,
            "python3 -c 'import os; print(dict(os.environ))'",
            "setsid sh -c 'env' ",
            "(setsid sh -c 'sleep 0.1; env' &); sleep 0.3",
          ].join("; "),
        );
        noCanary(result.output);
        assert.match(result.output, /PATH=/);
      },
    },
    {
      id: "W01",
      title: "workspace-write writes both roots; read-only mode writes neither",
      async run() {
        const tag = randomBytes(4).toString("hex");
        const write = await sh(`echo one > ${tag}.txt && echo two > ${f.homeRoot}/${tag}.txt && echo ok`);
        assert.match(write.output, /ok/);
        assert.equal(hostText(path.join(f.workspace, `${tag}.txt`)), "one\n");
        assert.equal(hostText(path.join(f.homeRoot, `${tag}.txt`)), "two\n");
        const denied = await allFail([`echo x > ro-${tag}.txt`, `echo x > ${f.homeRoot}/ro-${tag}.txt`], {
          mode: "read-only",
        });
        assert.match(denied.output, /Read-only file system/);
        const read = await sh("cat README.md", { mode: "read-only" });
        assert.equal(read.output, "hello\n");
        assert.ok(!existsSync(path.join(f.workspace, `ro-${tag}.txt`)));
      },
    },
    {
      id: "X02",
      title: "cancel kills setsid, nohup and double-forked processes: zero survivors",
      async run() {
        const m = marker();
        const controller = new AbortController();
        const pending = sh(
          `setsid sleep ${m}1 & (setsid sh -c 'sleep ${m}2 &' &); nohup sleep ${m}3 >/dev/null 2>&1 & sh -c 'trap "" TERM; sleep ${m}4' & sleep ${m}5`,
          {},
          controller.signal,
        );
        assert.ok(await waitFor(() => sleepers(m) === 5, 5000), `${sleepers(m)} of 5 started`);
        controller.abort();
        const result = await pending;
        assert.equal(result.aborted, true);
        assert.ok(await waitFor(() => survivors(m).length === 0, 2000), `survivors: ${survivors(m)}`);
      },
    },
    {
      id: "X05",
      title: "a finished command's background processes are gone",
      async run() {
        const m = marker();
        const result = await sh(
          `(setsid sh -c 'sleep ${m}1 &' &); setsid sleep ${m}2 & sleep 0.2; echo done`,
        );
        assert.match(result.output, /done/);
        assert.ok(await waitFor(() => survivors(m).length === 0, 2000), `survivors: ${survivors(m)}`);
      },
    },
  ];
}
