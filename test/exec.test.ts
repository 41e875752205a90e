import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BoundedOutput } from "../src/tools/exec/bounded-output.js";
import { buildChildEnv } from "../src/tools/exec/child-env.js";
import { parseProcStat } from "../src/tools/exec/proc-table.js";
import { createLocalExec } from "../src/tools/exec/run-command.js";
import type { ExecRequest } from "../src/tools/types.js";

const workDir = mkdtempSync(join(tmpdir(), "oi-exec-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const exec = createLocalExec({ env: buildChildEnv(process.env) });

function run(command: string, request: Partial<ExecRequest> = {}) {
  return exec.run({
    command,
    cwd: workDir,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    ...request,
  });
}

/** Pids whose command line contains `marker` (markers are unusual sleep durations). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
      const state = parseProcStat(readFileSync(`/proc/${name}/stat`, "utf8"));
      if (cmdline.includes(marker) && !state?.zombie) pids.push(Number(name));
    } catch {
      // exited while we looked
    }
  }
  return pids;
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe("createLocalExec", () => {
  it("reports exit codes and never rejects for a failing command", async () => {
    expect((await run("true")).exitCode).toBe(0);
    const failed = await run("echo before; exit 3");
    expect(failed).toMatchObject({ exitCode: 3, signal: null, timedOut: false, aborted: false });
    expect(failed.output).toBe("before\n");
    expect((await run("no-such-program-xyz")).exitCode).toBe(127);
  });

  it("merges stderr into the output in arrival order", async () => {
    const result = await run("echo one; sleep 0.05; echo two >&2; sleep 0.05; echo three");
    expect(result.output).toBe("one\ntwo\nthree\n");
    expect(result).toMatchObject({ totalBytes: 14, totalLines: 3, droppedBytes: 0 });
    expect(result.streams).toEqual({ stdout: "one\nthree\n", stderr: "two\n" });
    expect((await run("true")).streams).toBeUndefined();
  });

  it("counts a last line without a newline", async () => {
    expect(await run("printf 'a\\nb'")).toMatchObject({ output: "a\nb", totalLines: 2, totalBytes: 3 });
    expect(await run("true")).toMatchObject({ output: "", totalLines: 0, totalBytes: 0 });
  });

  it("runs in the requested directory, with stdin closed", async () => {
    expect((await run("pwd")).output).toBe(`${realpathSync(workDir)}\n`);
    const result = await run("cat; echo rc=$?", { timeoutMs: 2_000 });
    expect(result).toMatchObject({ output: "rc=0\n", timedOut: false });
  });

  it("streams decoded output to onOutput", async () => {
    const chunks: string[] = [];
    const result = await run("echo a; sleep 0.1; echo b", { onOutput: (chunk) => chunks.push(chunk) });
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.join("")).toBe(result.output);
  });

  it("decodes a UTF-8 character split across reads, even with stderr in between", async () => {
    const chunks: string[] = [];
    const result = await run("printf '\\342\\202'; sleep 0.1; printf x >&2; sleep 0.1; printf '\\254\\n'", {
      onOutput: (chunk) => chunks.push(chunk),
    });
    expect(result.output).toBe("x€\n");
    expect(chunks.join("")).toBe("x€\n");
    expect(chunks.join("")).not.toContain("\uFFFD");
  });

  it("answers a command that cannot start as a result, not a rejection", async () => {
    const result = await run("true", { cwd: join(workDir, "missing") });
    expect(result.exitCode).toBe(127);
    expect(result.output).toContain("missing");
    const nul = await run("echo a\0b");
    expect(nul.exitCode).toBe(127);
  });

  it("rejects programmer errors", async () => {
    await expect(run("true", { timeoutMs: 0 })).rejects.toThrow(RangeError);
  });

  it("does not start a command when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run("echo ran > ran.txt", { signal: controller.signal });
    expect(result.aborted).toBe(true);
    expect(readdirSync(workDir)).not.toContain("ran.txt");
  });

  it("lets a sandbox launcher wrap the command line", async () => {
    const wrapped = createLocalExec({
      env: buildChildEnv(process.env),
      wrap: (argv) => ["/bin/sh", "-c", 'echo launcher; exec "$@"', "launcher", ...argv],
    });
    const result = await wrapped.run({
      command: "echo inner",
      cwd: workDir,
      timeoutMs: 5_000,
      signal: new AbortController().signal,
    });
    expect(result.output).toBe("launcher\ninner\n");
  });
});

describe("child environment", () => {
  const CANARIES = [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_ACCESS_KEY_ID",
    "AWS_SESSION_TOKEN",
    "DB_PASSWORD",
    "PGPASSWORD",
    "NPM_TOKEN",
    "HF_TOKEN",
    "SLACK_BOT_TOKEN",
    "STRIPE_SECRET",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AZURE_CLIENT_SECRET",
    "DOCKER_AUTH_CONFIG",
    "SSH_AUTH_SOCK",
    "LC_API_KEY",
    "MY_private_key",
    "DATABASE_URL",
  ];

  it("passes none of 20 canary secrets to a command", async () => {
    const parent: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/home/x" };
    for (const [i, name] of CANARIES.entries()) parent[name] = `canary-value-${i}-zz`;
    const env = buildChildEnv(parent);
    const local = createLocalExec({ env });
    const result = await local.run({
      command: "env; cat /proc/$$/environ | tr '\\0' '\\n'",
      cwd: workDir,
      timeoutMs: 5_000,
      signal: new AbortController().signal,
    });
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("HOME=/home/x");
    expect(result.output).not.toContain("canary-value");
    for (const name of CANARIES) expect(result.output).not.toContain(`${name}=`);
  });

  it("defaults to a filtered copy of the daemon's environment", async () => {
    process.env.OI_TEST_SERVICE_TOKEN = "daemon-canary-zz";
    try {
      const result = await createLocalExec().run({
        command: "env",
        cwd: workDir,
        timeoutMs: 5_000,
        signal: new AbortController().signal,
      });
      expect(result.output).toContain("PAGER=cat");
      expect(result.output).not.toContain("daemon-canary-zz");
    } finally {
      delete process.env.OI_TEST_SERVICE_TOKEN;
    }
  });

  it("applies the allowlist and the policy", () => {
    const parent = {
      PATH: ".:/usr/bin::bin:/bin",
      HOME: "/h",
      LC_ALL: "C",
      LC_AUTH_TOKEN: "t",
      EDITOR: "vi",
      NODE_ENV: "test",
      NODE_AUTH_TOKEN: "n",
      MY_API_KEY: "k",
      BASH_ENV: "/tmp/evil",
    };
    expect(buildChildEnv(parent)).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/h",
      LC_ALL: "C",
      TERM: "dumb",
      PAGER: "cat",
      GIT_PAGER: "cat",
      GH_PAGER: "cat",
      GIT_TERMINAL_PROMPT: "0",
      NO_COLOR: "1",
    });
    const env = buildChildEnv(parent, {
      include: ["NODE_*", "MY_API_KEY", "EDITOR"],
      exclude: ["EDITOR"],
      set: { PAGER: "less", TERM: "xterm" },
    });
    expect(env).toMatchObject({ NODE_ENV: "test", MY_API_KEY: "k", PAGER: "less", TERM: "xterm" });
    expect(env).not.toHaveProperty("NODE_AUTH_TOKEN"); // a glob never lets a secret through
    expect(env).not.toHaveProperty("EDITOR");
    expect(env).not.toHaveProperty("BASH_ENV");
  });
});

describe("process trees", () => {
  it("kills a command on timeout, quickly", async () => {
    const started = Date.now();
    const result = await run("sleep 30.0101", { timeoutMs: 300 });
    expect(result).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: "SIGTERM" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(processesWith("30.0101")).toEqual([]);
  });

  it("kills the whole tree on abort, including setsid, nohup and TERM-ignoring grandchildren", async () => {
    const markers = ["300.123", "300.124", "300.125", "300.126"];
    const controller = new AbortController();
    const pending = run(
      "setsid sleep 300.123 & nohup sleep 300.124 & (trap '' TERM; exec sleep 300.126) & sleep 300.125",
      { signal: controller.signal },
    );
    const allStarted = await waitUntil(
      () => markers.every((marker) => processesWith(`sleep ${marker}`).length > 0),
      5_000,
    );
    expect(allStarted).toBe(true);
    const abortedAt = Date.now();
    controller.abort();
    const result = await pending;
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    const gone = await waitUntil(() => markers.every((marker) => processesWith(marker).length === 0), 2_000);
    expect(gone).toBe(true);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
  });

  it("does not wait for background children holding the pipes after a normal exit, and kills them", async () => {
    const started = Date.now();
    const result = await run("sleep 300.131 & echo done");
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result).toMatchObject({ exitCode: 0, output: "done\n", timedOut: false });
    expect(await waitUntil(() => processesWith("300.131").length === 0, 2_000)).toBe(true);
  });

  it("kills detached leftovers of a finished command, and a setsid one whose parent exited", async () => {
    const result = await run(
      "nohup sleep 300.132 >/dev/null 2>&1 & setsid sleep 300.133 >/dev/null 2>&1 & sleep 0.6",
    );
    expect(result.exitCode).toBe(0);
    expect(await waitUntil(() => processesWith("300.13").length === 0, 2_000)).toBe(true);
  });
});

describe("output floods", () => {
  it("keeps 50 MB of output bounded, with exact totals", async () => {
    const result = await run("yes | head -c 50000000", { timeoutMs: 30_000 });
    expect(result.exitCode).toBe(0);
    expect(result.totalBytes).toBe(50_000_000);
    expect(result.totalLines).toBe(25_000_000);
    expect(result.output.length).toBeLessThan(1024 * 1024 + 100);
    expect(result.output.startsWith("y\ny\n")).toBe(true);
    expect(result.output.endsWith("y\ny\n")).toBe(true);
    expect(result.output).toContain(`[… ${result.droppedBytes} bytes omitted …]`);
    expect(result.droppedBytes).toBe(50_000_000 - 1024 * 1024);
  });

  it("stops `yes` at the timeout with bounded memory", async () => {
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    let chunks = 0;
    const result = await run("yes", { timeoutMs: 2_000, onOutput: () => chunks++ });
    clearInterval(sampler);
    expect(result.timedOut).toBe(true);
    expect(result.totalBytes).toBeGreaterThan(10 * 1024 * 1024);
    // "y\n" repeated: every byte is accounted for, and a cut "y" counts as a last line.
    expect([2 * result.totalLines, 2 * result.totalLines - 1]).toContain(result.totalBytes);
    expect(result.output.length).toBeLessThan(1024 * 1024 + 100);
    expect(chunks).toBeGreaterThan(10);
    // Measured ~11 MB here while ~700 MB went through: the 1 MiB cap plus garbage not yet
    // collected (each 64 KiB read and its decoded string). Unbounded capture would be 700 MB.
    expect(peak - baseline).toBeLessThan(32 * 1024 * 1024);
  });
});

describe("BoundedOutput", () => {
  it("keeps head and tail without splitting characters at the cut", () => {
    const output = new BoundedOutput(16);
    const text = "€".repeat(20); // 3 bytes each: neither half ends on a character boundary
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += 5) output.push(bytes.subarray(i, i + 5));
    const result = output.finish();
    expect(result.totalBytes).toBe(60);
    expect(result.text).not.toContain("\uFFFD");
    const [head, tail] = result.text.split(/\n\[… \d+ bytes omitted …\]\n/);
    expect(head).toBe("€€");
    expect(tail).toBe("€€");
    expect(result.droppedBytes).toBe(60 - 12);
  });

  it("returns everything when it fits, and replaces invalid bytes", () => {
    const output = new BoundedOutput(64);
    output.push(Buffer.from([0x61, 0xff, 0x0a]));
    expect(output.finish()).toEqual({ text: "a\uFFFD\n", droppedBytes: 0, totalBytes: 3, totalLines: 1 });
  });

  it("does not grow with the input", () => {
    const output = new BoundedOutput(1024);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    for (let i = 0; i < 1000; i += 1) output.push(chunk);
    const result = output.finish();
    expect(result.totalBytes).toBe(64 * 1024 * 1000);
    expect(Buffer.byteLength(result.text)).toBeLessThan(1100);
  });
});
