import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, cpSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "./support/in-process.js";
import { LAUNCHER } from "./support/spawn-agent.js";

const ROOT = path.resolve(path.dirname(LAUNCHER), "..");
const INITIALIZE = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`;
const running: ChildProcess[] = [];

/** Starts the launcher, waits for the `initialize` answer, and reports how node was started. */
async function start(launcher: string, env: Record<string, string> = {}) {
  const home = tempDir("oi-launch-");
  const child = spawn(launcher, ["acp", "--in-process", "-m", "mock-model"], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, INTERPRETER_HOME: home, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.push(child);
  child.stdin?.write(INITIALIZE);
  const answer = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
    });
    child.on("exit", (code) => reject(new Error(`launcher exited with ${code} before answering`)));
  });
  // The launcher execs node, so the pid is node's own: its command line shows the entry point.
  const argv = readFileSync(`/proc/${child.pid}/cmdline`, "utf8").split("\0");
  return { result: JSON.parse(answer).result, argv };
}

/** A copy of the package (launcher and build) whose snapshot files the test may tamper with. */
function copyOfPackage(): string {
  const dir = tempDir("oi-pkg-");
  cpSync(path.join(ROOT, "bin"), path.join(dir, "bin"), { recursive: true });
  cpSync(path.join(ROOT, "dist"), path.join(dir, "dist"), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

afterEach(() => {
  for (const child of running.splice(0)) child.kill("SIGKILL");
});

describe("bin/interpreter", () => {
  it("starts the daemon from the V8 start-up snapshot built by this node", async () => {
    const { result, argv } = await start(LAUNCHER);
    expect(result.agentInfo.name).toBe("openinterpreter");
    expect(argv).toContain("--snapshot-blob");
    expect(argv.find((a) => a.endsWith("snapshot.blob"))).toBeDefined();
  });

  it("runs the plain entry point when asked to", async () => {
    const { result, argv } = await start(LAUNCHER, { INTERPRETER_SNAPSHOT: "0" });
    expect(result.agentInfo.name).toBe("openinterpreter");
    expect(argv).not.toContain("--snapshot-blob");
    expect(argv.some((a) => a.endsWith("interpreter.js"))).toBe(true);
  });

  it("works through a symlink, as npm installs it", async () => {
    const dir = tempDir("oi-bin-");
    symlinkSync(LAUNCHER, path.join(dir, "interpreter"));
    const { argv } = await start(path.join(dir, "interpreter"));
    expect(argv).toContain("--snapshot-blob");
  });

  it("falls back to the plain entry point when the snapshot was built by another node", async () => {
    const pkg = copyOfPackage();
    writeFileSync(path.join(pkg, "dist/snapshot.node"), "/opt/some-other/node\n");
    const { result, argv } = await start(path.join(pkg, "bin/interpreter"));
    expect(result.agentInfo.name).toBe("openinterpreter");
    expect(argv).not.toContain("--snapshot-blob");
  });

  it("gives node glibc's thresholds and huge pages for malloc unless the user set their own", () => {
    // A stand-in `node` first on PATH that prints the environment it was started with.
    const bin = tempDir("oi-fake-node-");
    writeFileSync(path.join(bin, "node"), "#!/bin/sh\nenv\n");
    chmodSync(path.join(bin, "node"), 0o755);
    const environment = (extra: Record<string, string>) =>
      execFileSync(LAUNCHER, ["acp", "--in-process"], {
        env: { PATH: `${bin}:/usr/bin:/bin`, HOME: bin, ...extra },
        encoding: "utf8",
      });
    const ours = environment({});
    expect(ours).toContain("MALLOC_MMAP_THRESHOLD_=262144\n");
    expect(ours).toContain("MALLOC_TRIM_THRESHOLD_=2097152\n");
    const theirs = environment({ MALLOC_MMAP_THRESHOLD_: "65536" });
    expect(theirs).toContain("MALLOC_MMAP_THRESHOLD_=65536\n");
    expect(theirs).toContain("MALLOC_TRIM_THRESHOLD_=2097152\n");
    expect(ours).toContain("GLIBC_TUNABLES=glibc.malloc.hugetlb=1\n");
    expect(environment({ GLIBC_TUNABLES: "glibc.malloc.arena_max=2" })).toContain(
      "GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1\n",
    );
    expect(environment({ GLIBC_TUNABLES: "glibc.malloc.hugetlb=0" })).toContain(
      "GLIBC_TUNABLES=glibc.malloc.hugetlb=0\n",
    );
  });

  it("falls back when node changed after the snapshot was built", async () => {
    const pkg = copyOfPackage();
    const longAgo = new Date("2001-01-01T00:00:00Z");
    utimesSync(path.join(pkg, "dist/snapshot.blob"), longAgo, longAgo);
    const { argv } = await start(path.join(pkg, "bin/interpreter"));
    expect(argv).not.toContain("--snapshot-blob");
  });
});
