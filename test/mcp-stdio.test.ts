import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpManager, type McpManager } from "../src/tools/mcp/mcp-manager.js";
import {
  BIN,
  newMarker,
  processesWithMarker,
  stdioSpec,
  TEST_SERVER,
  testLogger,
  waitFor,
} from "./support/mcp-helpers.js";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const signal = () => new AbortController().signal;

describe("MCP manager over stdio with the reference servers", () => {
  const marker = newMarker();
  const victimMarker = newMarker();
  const dir = mkdtempSync(path.join(tmpdir(), "oi-mcp-"));
  const cancelFile = path.join(dir, "cancelled");
  const log = testLogger();
  let manager: McpManager;
  let changes = 0;

  beforeAll(async () => {
    writeFileSync(path.join(dir, "hello.txt"), "hello from the workspace\n");
    manager = createMcpManager({
      env: process.env,
      logger: log.logger,
      cwd: dir,
      clientVersion: "0.1.0-test",
    });
    manager.onChange(() => {
      changes += 1;
    });
    const node = process.execPath;
    await manager.start([
      stdioSpec("everything", path.join(BIN, "mcp-server-everything"), ["stdio"], { marker }),
      stdioSpec("slow everything", path.join(BIN, "mcp-server-everything"), ["stdio"], {
        marker,
        toolTimeoutMs: 500,
      }),
      stdioSpec("files", path.join(BIN, "mcp-server-filesystem"), [dir], { marker }),
      stdioSpec("test", node, [TEST_SERVER], { marker, env: { CANCEL_FILE: cancelFile } }),
      stdioSpec("victim", node, [TEST_SERVER], { marker: victimMarker }),
      stdioSpec("crasher", node, [TEST_SERVER], { marker }),
      stdioSpec("broken", "/nonexistent/mcp-server", [], { marker }),
      {
        ...stdioSpec("nowhere", node, [TEST_SERVER], { marker }),
        transport: {
          type: "stdio",
          command: node,
          args: [TEST_SERVER],
          env: {},
          envVars: [],
          cwd: "missing-dir",
        },
      },
      stdioSpec("hanging", node, [TEST_SERVER, "--hang"], { marker, startupTimeoutMs: 400 }),
      stdioSpec(
        "dying",
        node,
        ["-e", "console.error('starting');console.error('FOO_API_KEY is not set');process.exit(2)"],
        {
          marker,
        },
      ),
    ]);
  });

  afterAll(async () => {
    await manager.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("starts every server in parallel; a bad command, a silent or a dying server fails alone", () => {
    const byName = Object.fromEntries(manager.status().map((s) => [s.name, s]));
    for (const name of ["everything", "slow everything", "files", "test", "victim", "crasher"]) {
      expect(byName[name]).toMatchObject({ state: "ready", transport: "stdio", source: "config" });
      expect(byName[name]!.tools).toBeGreaterThan(0);
    }
    expect(byName.broken).toMatchObject({ state: "failed", tools: 0 });
    expect(byName.broken!.error).toMatch(/cannot start \/nonexistent\/mcp-server: .*ENOENT/);
    expect(byName.nowhere).toMatchObject({
      state: "failed",
      error: `working directory ${path.join(dir, "missing-dir")} does not exist`,
    });
    expect(byName.hanging).toMatchObject({ state: "failed", error: "did not start within 0.4 s" });
    expect(byName.dying).toMatchObject({
      state: "failed",
      error: "server exited with code 2; stderr: starting\nFOO_API_KEY is not set",
    });
    expect(changes).toBeGreaterThanOrEqual(1);
  });

  it("kills a server that did not start in time", () => {
    const hanging = processesWithMarker(marker).filter((p) => p.cmdline.includes("--hang"));
    expect(hanging).toEqual([]);
  });

  it("lists tools under sanitised, unique model names with a reverse map to the raw names", () => {
    const tools = manager.tools();
    const names = tools.map((t) => t.modelName);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(NAME);

    const echo = tools.find((t) => t.modelName === "mcp__everything__echo");
    expect(echo).toMatchObject({ server: "everything", name: "echo", title: "Echo Tool", readOnly: true });
    expect(echo!.inputSchema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(tools.find((t) => t.modelName === "mcp__slow_everything__echo")).toBeDefined();
    expect(tools.find((t) => t.modelName === "mcp__files__read_text_file")?.readOnly).toBe(true);
    expect(tools.find((t) => t.modelName === "mcp__files__write_file")?.readOnly).toBe(false);
    // Needs the experimental tasks API, which a plain tools/call cannot use.
    expect(tools.find((t) => t.name === "simulate-research-query")).toBeUndefined();

    const dotted = tools.filter((t) => t.server === "test" && (t.name === "a.b" || t.name === "a_b"));
    expect(dotted).toHaveLength(2);
    for (const tool of dotted) expect(tool.modelName).toMatch(/^mcp__test__a_b_[0-9a-f]{12}$/);
    const long = tools.find((t) => t.server === "test" && t.name.startsWith("long_"));
    expect(long!.modelName).toHaveLength(64);
    expect(long!.modelName).toMatch(/^mcp__test__long_x+_[0-9a-f]{12}$/);
  });

  it("calls a text tool", async () => {
    const result = await manager.call("mcp__everything__echo", { message: "hello" }, { signal: signal() });
    expect(result).toEqual({
      output: "Echo: hello",
      display: [{ type: "text", text: "Echo: hello" }],
      isError: false,
    });
  });

  it("turns an image into a placeholder with its type and size", async () => {
    const result = await manager.call("mcp__everything__get-tiny-image", {}, { signal: signal() });
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(
      /^Here's the image you requested:\n\[image: image\/png, \d+\.\d KB\]\nThe image above is the MCP logo\.$/,
    );
  });

  it("maps structured content, resources and resource links", async () => {
    const weather = await manager.call(
      "mcp__everything__get-structured-content",
      { location: "Chicago" },
      { signal: signal() },
    );
    expect(JSON.parse(weather.output)).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
    const structured = await manager.call("mcp__test__structured_only", {}, { signal: signal() });
    expect(structured.output).toBe('{"answer":42}');
    const resources = await manager.call("mcp__test__resources", {}, { signal: signal() });
    expect(resources.output).toBe(
      "[resource file:///notes.txt]\nnote body\n[resource file:///blob.bin (application/octet-stream, 3 B)]",
    );
    const links = await manager.call(
      "mcp__everything__get-resource-links",
      { count: 2 },
      { signal: signal() },
    );
    expect(links.output.split("\n")).toHaveLength(3);
    expect(links.output).toMatch(/\n\[resource link .*<demo:\/\/resource\/dynamic\/(text|blob)\/1> \(/);
  });

  it("reads a file through the filesystem server and reports its refusals as tool errors", async () => {
    const read = await manager.call(
      "mcp__files__read_text_file",
      { path: path.join(dir, "hello.txt") },
      { signal: signal() },
    );
    expect(read).toMatchObject({ output: "hello from the workspace\n", isError: false });
    const outside = await manager.call(
      "mcp__files__read_text_file",
      { path: "/etc/hostname" },
      { signal: signal() },
    );
    expect(outside.isError).toBe(true);
    expect(outside.output).toMatch(/Access denied/);
  });

  it("returns a failing tool's error to the model", async () => {
    const result = await manager.call("mcp__test__fail", {}, { signal: signal() });
    expect(result).toMatchObject({ isError: true, output: expect.stringContaining("boom: the tool failed") });
    const invalid = await manager.call("mcp__everything__echo", { message: 42 }, { signal: signal() });
    expect(invalid.isError).toBe(true);
  });

  it("times a call out after the server's tool timeout", async () => {
    const started = Date.now();
    const result = await manager.call(
      "mcp__slow_everything__trigger-long-running-operation",
      { duration: 5, steps: 5 },
      { signal: signal() },
    );
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toBe(
      "MCP tool slow everything/trigger-long-running-operation timed out after 0.5 s",
    );
    expect(Date.now() - started).toBeLessThan(3000);
    const after = await manager.call(
      "mcp__slow_everything__echo",
      { message: "still here" },
      { signal: signal() },
    );
    expect(after.output).toBe("Echo: still here");
  });

  it("reports progress notifications", async () => {
    const progress: string[] = [];
    const result = await manager.call(
      "mcp__everything__trigger-long-running-operation",
      { duration: 0.3, steps: 3 },
      { signal: signal(), onProgress: (text) => progress.push(text) },
    );
    expect(result.isError).toBe(false);
    // The SDK handles notifications a microtask later than responses, so the last one,
    // sent just before the result, may be dropped.
    expect(progress.slice(0, 2)).toEqual(["1/3\n", "2/3\n"]);
  });

  it("cancels a call on abort and tells the server", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await manager.call("mcp__test__wait_for_cancel", {}, { signal: controller.signal });
    expect(result).toMatchObject({ isError: true, output: "MCP tool test/wait_for_cancel was cancelled" });
    expect(Date.now() - started).toBeLessThan(2000);
    await waitFor(() => existsSync(cancelFile), 5000);
    const echo = await manager.call(
      "mcp__everything__echo",
      { message: "after abort" },
      { signal: signal() },
    );
    expect(echo.output).toBe("Echo: after abort");
  });

  it("answers unknown tools and failed servers with an error the model can read", async () => {
    const unknown = await manager.call("mcp__nope__x", {}, { signal: signal() });
    expect(unknown).toMatchObject({ isError: true, output: "mcp__nope__x is not an MCP tool" });
  });

  it("refreshes the tools after notifications/tools/list_changed", async () => {
    const before = changes;
    const fired = new Promise<void>((resolve) => {
      const off = manager.onChange(() => {
        if (manager.tools().some((t) => t.modelName === "mcp__test__fresh")) {
          off();
          resolve();
        }
      });
    });
    const added = await manager.call("mcp__test__add_tool", { name: "fresh" }, { signal: signal() });
    expect(added.output).toBe("added fresh");
    await fired;
    expect(changes).toBeGreaterThan(before);
    const fresh = await manager.call("mcp__test__fresh", {}, { signal: signal() });
    expect(fresh.output).toBe("I am fresh");
  });

  it("drops the tools of a server killed mid-session; the others go on", async () => {
    const victimTool = manager.tools().find((t) => t.server === "victim")!;
    const gone = new Promise<void>((resolve) => {
      const off = manager.onChange(() => {
        if (manager.status().find((s) => s.name === "victim")?.state === "failed") {
          off();
          resolve();
        }
      });
    });
    const [victim] = processesWithMarker(victimMarker);
    process.kill(victim!.pid, "SIGKILL");
    await gone;
    const status = manager.status().find((s) => s.name === "victim")!;
    expect(status).toMatchObject({ state: "failed", tools: 0 });
    expect(status.error).toMatch(/killed by SIGKILL/);
    expect(manager.tools().filter((t) => t.server === "victim")).toEqual([]);
    const call = await manager.call(victimTool.modelName, {}, { signal: signal() });
    expect(call.isError).toBe(true);
    expect(call.output).toMatch(
      /^MCP server "victim" is not available \(failed: server was killed by SIGKILL/,
    );
    const echo = await manager.call("mcp__everything__echo", { message: "alive" }, { signal: signal() });
    expect(echo.output).toBe("Echo: alive");
  });

  it("fails a call whose server exits mid-call, with the server's last words", async () => {
    const result = await manager.call("mcp__crasher__crash", {}, { signal: signal() });
    expect(result).toMatchObject({ isError: true });
    expect(result.output).toBe(
      'MCP server "crasher" is gone: server exited with code 3; stderr: fatal: crash requested',
    );
    await waitFor(() => manager.status().find((s) => s.name === "crasher")?.state === "failed");
    expect(manager.status().find((s) => s.name === "crasher")!.error).toBe(
      "server exited with code 3; stderr: fatal: crash requested",
    );
  });

  it("leaves no process behind after close()", async () => {
    expect(processesWithMarker(marker).length).toBeGreaterThan(0);
    await manager.close();
    expect(processesWithMarker(marker)).toEqual([]);
    expect(processesWithMarker(victimMarker)).toEqual([]);
    expect(manager.status().every((s) => s.state === "closed" || s.state === "failed")).toBe(true);
    expect(manager.tools()).toEqual([]);
  });
});
