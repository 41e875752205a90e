import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMcpManager } from "../src/tools/mcp/mcp-manager.js";
import {
  newMarker,
  processesWithMarker,
  stdioSpec,
  TEST_SERVER,
  testLogger,
  waitFor,
} from "./support/mcp-helpers.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const signal = () => new AbortController().signal;

describe("MCP stdio server processes", () => {
  it("close() kills npx-started servers with their grandchildren", async () => {
    const marker = newMarker();
    const manager = createMcpManager({ env: process.env, logger: testLogger().logger, cwd: ROOT });
    await manager.start([
      // npx → sh → node: the server is a grandchild of the process we spawn.
      stdioSpec("npx-everything", "npx", ["--no", "mcp-server-everything", "stdio"], { marker }),
      // One descendant in the server's process group, one in a session of its own.
      stdioSpec("spawner", process.execPath, [TEST_SERVER, "--grandchild"], { marker }),
    ]);
    expect(manager.status().map((s) => s.state)).toEqual(["ready", "ready"]);
    const echo = await manager.call(
      "mcp__npx-everything__echo",
      { message: "via npx" },
      { signal: signal() },
    );
    expect(echo.output).toBe("Echo: via npx");
    const before = processesWithMarker(marker);
    expect(before.length).toBeGreaterThanOrEqual(6);
    expect(before.some((p) => p.cmdline.includes("npm exec") || p.cmdline.includes("npx"))).toBe(true);
    expect(before.filter((p) => p.cmdline.includes("setInterval"))).toHaveLength(2);

    await manager.close();
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it("kills what a server left behind when it exits on its own", async () => {
    const marker = newMarker();
    const manager = createMcpManager({ env: process.env, logger: testLogger().logger });
    await manager.start([stdioSpec("spawner", process.execPath, [TEST_SERVER, "--grandchild"], { marker })]);
    expect(processesWithMarker(marker).filter((p) => p.cmdline.includes("setInterval"))).toHaveLength(2);
    const crash = await manager.call("mcp__spawner__crash", {}, { signal: signal() });
    expect(crash.isError).toBe(true);
    await waitFor(() => manager.status()[0]?.state === "failed");
    await waitFor(() => processesWithMarker(marker).length === 0, 5000);
    await manager.close();
  });

  it("close() during start stops servers that are still starting", async () => {
    const marker = newMarker();
    const manager = createMcpManager({ env: process.env, logger: testLogger().logger });
    const started = manager.start([
      stdioSpec("hanging", process.execPath, [TEST_SERVER, "--hang"], { marker, startupTimeoutMs: 60_000 }),
    ]);
    await waitFor(() => processesWithMarker(marker).length > 0);
    const t0 = Date.now();
    await manager.close();
    await started;
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(manager.status()).toMatchObject([{ name: "hanging", state: "closed" }]);
    expect(processesWithMarker(marker)).toEqual([]);
  });

  it("gives stdio servers only allowlisted variables, their env table and their env_vars", async () => {
    const env = {
      ...process.env,
      OI_CANARY_API_TOKEN: "canary-secret-1",
      OI_CANARY_PLAIN: "canary-plain-2",
    };
    const manager = createMcpManager({ env, logger: testLogger().logger });
    const bin = path.join(ROOT, "node_modules/.bin/mcp-server-everything");
    await manager.start([
      stdioSpec("plain", bin, ["stdio"], { env: { CONFIGURED: "from-config" } }),
      stdioSpec("named", bin, ["stdio"], { envVars: ["OI_CANARY_API_TOKEN"] }),
    ]);
    try {
      const plain = await manager.call("mcp__plain__get-env", {}, { signal: signal() });
      const seen = JSON.parse(plain.output) as Record<string, string>;
      expect(plain.output).not.toContain("canary-secret-1");
      expect(plain.output).not.toContain("canary-plain-2");
      expect(seen.CONFIGURED).toBe("from-config");
      expect(seen.PATH).toBeTruthy();
      for (const name of Object.keys(process.env)) {
        if (/KEY|SECRET|TOKEN|PASSWORD|CREDENTIAL/i.test(name)) expect(seen[name]).toBeUndefined();
      }
      const named = await manager.call("mcp__named__get-env", {}, { signal: signal() });
      expect(JSON.parse(named.output).OI_CANARY_API_TOKEN).toBe("canary-secret-1");
      expect(named.output).not.toContain("canary-plain-2");
    } finally {
      await manager.close();
    }
  });

  it("keeps the MCP SDK out of the modules loaded before a server starts", () => {
    // Follow the static, non-type imports from the modules a session loads eagerly; only the
    // dynamically imported mcp-connection.ts may reach the SDK.
    const seen = new Set<string>();
    const queue = ["mcp-manager.ts", "mcp-tool.ts", "mcp-server-spec.ts"].map((f) =>
      path.join(ROOT, "src/tools/mcp", f),
    );
    const sdkImports: string[] = [];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(file, "utf8");
      for (const match of text.matchAll(/^(?:import|export) (?!type )[^;]*?from "([^"]+)";/gms)) {
        const spec = match[1]!;
        if (spec.startsWith("@modelcontextprotocol/")) sdkImports.push(`${path.basename(file)} -> ${spec}`);
        if (spec.startsWith(".")) queue.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")));
      }
    }
    expect(seen.size).toBeGreaterThan(3);
    expect(sdkImports).toEqual([]);
  });
});
