import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSync } from "esbuild";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger, createSilentLogger, logFilePath } from "../src/config/logger.js";

let home: string;
let scratch: string;

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "oi-logger-build-"));
  // The child runs our logger module as-is: compiled to CommonJS so NODE_PATH finds pino.
  buildSync({
    entryPoints: [path.resolve("src/config/logger.ts")],
    outfile: path.join(scratch, "logger.cjs"),
    bundle: true,
    packages: "external",
    format: "cjs",
    platform: "node",
    target: "node20",
    logLevel: "error",
  });
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), "oi-logger-"));
  return () => fs.rmSync(home, { recursive: true, force: true });
});

function lines(): Record<string, unknown>[] {
  return fs
    .readFileSync(logFilePath(home), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Runs `body` in a fresh node process where `createLogger` is in scope. */
function runChild(body: string) {
  const script = `const { createLogger } = require(${JSON.stringify(path.join(scratch, "logger.cjs"))});\n${body}`;
  return spawnSync(process.execPath, ["-e", script], {
    env: { PATH: process.env.PATH, NODE_PATH: path.resolve("node_modules"), HOME: home },
    encoding: "utf8",
    // A hang (e.g. a flush that retries forever) fails the test instead of stalling the run.
    timeout: 10_000,
  });
}

describe("createLogger", () => {
  it("writes JSON lines to $home/log/openinterpreter.log and nothing to stdout", () => {
    const child = runChild(`
      const log = createLogger({ home: ${JSON.stringify(home)} });
      log.info({ sessionId: "s1" }, "hello");
      log.child({ sessionId: "s2" }).warn("from child");
      log.flush();
    `);
    expect(child.status).toBe(0);
    expect(child.stdout).toBe("");
    expect(child.stderr).toBe("");
    const [hello, warn] = lines();
    expect(hello).toMatchObject({ level: 30, msg: "hello", sessionId: "s1", pid: child.pid });
    expect(typeof hello?.time).toBe("string");
    expect(warn).toMatchObject({ level: 40, msg: "from child", sessionId: "s2" });
  });

  it("loses nothing and keeps order when the process exits without a flush", () => {
    const child = runChild(`
      const log = createLogger({ home: ${JSON.stringify(home)} });
      for (let i = 0; i < 2000; i++) log.info({ i }, "burst");
      process.exit(0);
    `);
    expect(child.status).toBe(0);
    expect(child.stdout).toBe("");
    const all = lines();
    expect(all).toHaveLength(2000);
    expect(all.map((line) => line.i)).toEqual(Array.from({ length: 2000 }, (_, i) => i));
  });

  it("mirrors to stderr when asked, still not to stdout", () => {
    const child = runChild(`
      const log = createLogger({ home: ${JSON.stringify(home)}, stderr: true, level: "debug" });
      log.debug({ step: 1 }, "mirrored");
      log.flush();
    `);
    expect(child.status).toBe(0);
    expect(child.stdout).toBe("");
    expect(JSON.parse(child.stderr.trim())).toMatchObject({ msg: "mirrored", step: 1, level: 20 });
    expect(lines()).toEqual([expect.objectContaining({ msg: "mirrored" })]);
  });

  it.runIf(fs.existsSync("/dev/full"))("survives a log it cannot write, saying so once on stderr", () => {
    fs.mkdirSync(path.join(home, "log"));
    fs.symlinkSync("/dev/full", logFilePath(home));
    const child = runChild(`
      const log = createLogger({ home: ${JSON.stringify(home)} });
      log.info("one");
      log.info("two");
      log.flush();
      process.stderr.write("still running");
    `);
    expect(child.status).toBe(0);
    expect(child.stdout).toBe("");
    expect(child.stderr.match(/cannot write/g)).toHaveLength(1);
    expect(child.stderr).toContain("still running");
  });

  it("redacts API keys and authorization headers", () => {
    const log = createLogger({ home });
    log.info({ apiKey: "sk-top", authorization: "Bearer top" }, "top level");
    log.info({ provider: { id: "openai", apiKey: "sk-nested" } }, "nested");
    log.info({ headers: { authorization: "Bearer h1", accept: "text/event-stream" } }, "headers");
    log.info({ request: { headers: { Authorization: "Bearer h2" } } }, "request");
    log.flush();
    const text = fs.readFileSync(logFilePath(home), "utf8");
    for (const secret of ["sk-top", "Bearer top", "sk-nested", "Bearer h1", "Bearer h2"]) {
      expect(text).not.toContain(secret);
    }
    const [top, nested, headers, request] = lines();
    expect(top).toMatchObject({ apiKey: "[redacted]", authorization: "[redacted]" });
    expect(nested).toMatchObject({ provider: { id: "openai", apiKey: "[redacted]" } });
    expect(headers).toMatchObject({ headers: { authorization: "[redacted]", accept: "text/event-stream" } });
    expect(request).toMatchObject({ request: { headers: { Authorization: "[redacted]" } } });
  });

  it("respects the level and falls back to info for an unknown one", () => {
    const log = createLogger({ home, level: "warn" });
    log.info("dropped");
    log.error({ code: 1 }, "kept");
    log.flush();
    expect(lines().map((line) => line.msg)).toEqual(["kept"]);

    const other = createLogger({ home, level: "loud" });
    other.debug("dropped");
    other.info("info is on");
    other.flush();
    const msgs = lines().map((line) => line.msg);
    expect(msgs).toContain("unknown log level; using info");
    expect(msgs).toContain("info is on");
    expect(msgs).not.toContain("dropped");
  });

  it("creates the log directory with private permissions", () => {
    const nested = path.join(home, "deeper", "home");
    createLogger({ home: nested }).flush();
    const stat = fs.statSync(logFilePath(nested));
    expect(stat.mode & 0o777).toBe(0o600);
  });
});

describe("createSilentLogger", () => {
  it("accepts every call and writes nothing", () => {
    const log = createSilentLogger();
    log.info({ a: 1 }, "x");
    log.child({ b: 2 }).error("y");
    log.flush();
    expect(fs.existsSync(path.join(home, "log"))).toBe(false);
  });
});
