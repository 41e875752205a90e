import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpManager, type McpManager } from "../src/tools/mcp/mcp-manager.js";
import { httpSpec, startEverythingHttp, testLogger, waitFor } from "./support/mcp-helpers.js";

const signal = () => new AbortController().signal;

describe("MCP over HTTP with server-everything", () => {
  let streamable: Awaited<ReturnType<typeof startEverythingHttp>>;
  let sse: Awaited<ReturnType<typeof startEverythingHttp>>;
  let manager: McpManager;

  beforeAll(async () => {
    [streamable, sse] = await Promise.all([
      startEverythingHttp("streamableHttp"),
      startEverythingHttp("sse"),
    ]);
    manager = createMcpManager({ env: {}, logger: testLogger().logger });
    await manager.start([
      httpSpec("remote", `http://127.0.0.1:${streamable.port}/mcp`),
      // An SSE-only server: POST /sse is a 404, so the client falls back to SSE.
      httpSpec("legacy", `http://127.0.0.1:${sse.port}/sse`),
    ]);
  });

  afterAll(async () => {
    await manager?.close();
    await Promise.all([streamable?.stop(), sse?.stop()]);
  });

  it("connects with Streamable HTTP, and with SSE only after a 404", () => {
    expect(manager.status()).toMatchObject([
      { name: "remote", state: "ready", transport: "http" },
      { name: "legacy", state: "ready", transport: "sse" },
    ]);
    expect(manager.tools().some((t) => t.modelName === "mcp__remote__echo")).toBe(true);
    expect(manager.tools().some((t) => t.modelName === "mcp__legacy__echo")).toBe(true);
  });

  it("calls tools over both transports", async () => {
    const remote = await manager.call("mcp__remote__echo", { message: "over http" }, { signal: signal() });
    expect(remote).toMatchObject({ output: "Echo: over http", isError: false });
    const legacy = await manager.call("mcp__legacy__echo", { message: "over sse" }, { signal: signal() });
    expect(legacy).toMatchObject({ output: "Echo: over sse", isError: false });
    const sum = await manager.call("mcp__remote__get-sum", { a: 2, b: 3 }, { signal: signal() });
    expect(sum.output).toMatch(/5/);
  });

  it("drops an HTTP server that went away; the others go on", async () => {
    let changed = false;
    const off = manager.onChange(() => {
      changed = true;
    });
    await streamable.stop();
    const call = await manager.call("mcp__remote__echo", { message: "anyone?" }, { signal: signal() });
    expect(call.isError).toBe(true);
    expect(call.output).toMatch(/^MCP server "remote" is gone: fetch failed/);
    await waitFor(() => changed);
    off();
    expect(manager.status()[0]).toMatchObject({ name: "remote", state: "failed", tools: 0 });
    expect(manager.tools().filter((t) => t.server === "remote")).toEqual([]);
    const legacy = await manager.call("mcp__legacy__echo", { message: "still" }, { signal: signal() });
    expect(legacy.output).toBe("Echo: still");
  });
});

describe("MCP over HTTP: fallback rules and credentials", () => {
  let server: Server;
  let base: string;
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
      req.resume();
      const status = Number(req.url?.split("/")[1]);
      res.writeHead(Number.isInteger(status) && status >= 400 ? status : 500, {
        "content-type": "text/plain",
      });
      res.end("no MCP here");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("does not fall back to SSE on 401, and sends the configured headers and bearer token", async () => {
    const manager = createMcpManager({
      env: { MY_MCP_TOKEN: "t0k3n", TEAM: "blue" },
      logger: testLogger().logger,
    });
    await manager.start([
      httpSpec("guarded", `${base}/401`, {
        transport: {
          type: "http",
          url: `${base}/401`,
          headers: { "X-Client": "oi" },
          envHeaders: { "X-Team": "TEAM", "X-Missing": "NOT_SET" },
          bearerTokenEnvVar: "MY_MCP_TOKEN",
        },
      }),
    ]);
    const status = manager.status()[0]!;
    expect(status.state).toBe("failed");
    expect(status.error).toMatch(/401/);
    const requests = seen.filter((r) => r.url === "/401");
    expect(requests.map((r) => r.method)).toEqual(["POST"]);
    expect(requests[0]!.headers).toMatchObject({
      authorization: "Bearer t0k3n",
      "x-client": "oi",
      "x-team": "blue",
    });
    expect(requests[0]!.headers["x-missing"]).toBeUndefined();
    await manager.close();
  });

  it("tries SSE after a 405 and reports both failures", async () => {
    const manager = createMcpManager({ env: {}, logger: testLogger().logger });
    await manager.start([httpSpec("old", `${base}/405`)]);
    const status = manager.status()[0]!;
    expect(status.state).toBe("failed");
    expect(status.error).toMatch(/^Streamable HTTP answered 405, and SSE failed too: .*405/);
    expect(seen.filter((r) => r.url === "/405").map((r) => r.method)).toEqual(["POST", "GET"]);
    await manager.close();
  });

  it("fails a server whose bearer token variable is not set, without a request", async () => {
    const before = seen.length;
    const manager = createMcpManager({ env: {}, logger: testLogger().logger });
    await manager.start([
      httpSpec("tokenless", `${base}/401`, {
        transport: {
          type: "http",
          url: `${base}/401`,
          headers: {},
          envHeaders: {},
          bearerTokenEnvVar: "ABSENT",
        },
      }),
    ]);
    expect(manager.status()[0]).toMatchObject({
      state: "failed",
      error: "environment variable ABSENT (bearer_token_env_var) is not set",
    });
    expect(seen.length).toBe(before);
    await manager.close();
  });
});
