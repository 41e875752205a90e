import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { McpServerSpec } from "../../src/tools/mcp/mcp-server-spec.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(ROOT, "node_modules/.bin");
export const TEST_SERVER = path.join(ROOT, "test/support/mcp-test-server.mjs");
export const MARKER_VAR = "OI_MCP_TEST_MARKER";

export interface LogLine {
  level: string;
  obj: unknown;
  msg?: string;
}

export function testLogger(): {
  logger: Record<"debug" | "info" | "warn" | "error", (o: object | string, m?: string) => void>;
  lines: LogLine[];
} {
  const lines: LogLine[] = [];
  const at = (level: string) => (obj: object | string, msg?: string) => void lines.push({ level, obj, msg });
  return { logger: { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") }, lines };
}

/** A stdio server spec; `marker` lands in the env of the server and all its descendants. */
export function stdioSpec(
  name: string,
  command: string,
  args: string[],
  extra: Partial<McpServerSpec> & { env?: Record<string, string>; envVars?: string[]; marker?: string } = {},
): McpServerSpec {
  const { env = {}, envVars = [], marker, ...rest } = extra;
  return {
    name,
    source: "config",
    transport: {
      type: "stdio",
      command,
      args,
      env: { ...env, ...(marker ? { [MARKER_VAR]: marker } : {}) },
      envVars,
    },
    startupTimeoutMs: 15_000,
    toolTimeoutMs: 30_000,
    disabledTools: [],
    ...rest,
  };
}

export function httpSpec(name: string, url: string, extra: Partial<McpServerSpec> = {}): McpServerSpec {
  return {
    name,
    source: "config",
    transport: { type: "http", url, headers: {}, envHeaders: {} },
    startupTimeoutMs: 15_000,
    toolTimeoutMs: 30_000,
    disabledTools: [],
    ...extra,
  };
}

export const newMarker = (): string => randomUUID();

/** Live (non-zombie) processes whose environment holds `marker`. */
export function processesWithMarker(marker: string): Array<{ pid: number; cmdline: string }> {
  const needle = `${MARKER_VAR}=${marker}`;
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state === "Z" || state === "X") continue;
      const environ = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
      if (!environ.includes(needle)) continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").trim();
      found.push({ pid: Number(name), cmdline });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

export async function waitFor<T>(probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("waitFor: timed out");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** server-everything over HTTP (`streamableHttp` or `sse`) on a free loopback port. */
export async function startEverythingHttp(
  mode: "streamableHttp" | "sse",
): Promise<{ port: number; child: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(path.join(BIN, "mcp-server-everything"), [mode], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (text: string) => {
    stderr += text;
  });
  await waitFor(
    () => /listening on port|Server is running on port/.test(stderr) || child.exitCode !== null,
    15_000,
  );
  if (child.exitCode !== null) throw new Error(`server-everything ${mode} exited: ${stderr}`);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  return { port, child, stop };
}
