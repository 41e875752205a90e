import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { limitLines } from "../src/acp/line-limit.js";
import { tempDir } from "./support/in-process.js";
import { BIN } from "./support/spawn-agent.js";

async function frame(chunks: string[], maxBytes: number): Promise<{ lines: string[]; dropped: number[] }> {
  const encoder = new TextEncoder();
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  const dropped: number[] = [];
  const out: string[] = [];
  const reader = limitLines(input, { maxBytes, onOversized: (bytes) => dropped.push(bytes) }).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.push(new TextDecoder().decode(value));
  }
  return { lines: out, dropped };
}

describe("limitLines", () => {
  it("hands the SDK whole lines, however the bytes arrive", async () => {
    expect(await frame(['{"a":', '1}\n{"b":2}\n{"c"', ":3}\n", "tail"], 100)).toEqual({
      lines: ['{"a":1}\n', '{"b":2}\n', '{"c":3}\n', "tail"],
      dropped: [],
    });
  });

  it("replaces an over-long line with a stand-in and keeps going", async () => {
    const long = "x".repeat(50);
    expect(await frame([`{"ok":1}\n${long.slice(0, 20)}`, `${long.slice(20)}\n{"ok":2}\n`], 30)).toEqual({
      lines: ['{"ok":1}\n', "oversized message dropped\n", '{"ok":2}\n'],
      dropped: [51],
    });
  });
});

describe("the daemon and a message over 32 MiB", () => {
  it("answers it with a parse error and keeps serving", async () => {
    const home = tempDir("oi-home-");
    const child = spawn(process.execPath, [BIN, "acp", "--in-process"], {
      env: { PATH: process.env.PATH, HOME: home, INTERPRETER_HOME: home },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const huge = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"pad":"${"x".repeat(33 * 1024 * 1024)}"}}\n`;
    child.stdin.write(huge);
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: 1, clientCapabilities: {} } })}\n`,
    );
    const deadline = Date.now() + 20_000;
    while (!stdout.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const messages = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: unknown; error?: { code: number } });
    expect(messages[0]).toMatchObject({ id: null, error: { code: -32700 } });
    expect(messages[1]).toMatchObject({ id: 2, result: { protocolVersion: 1 } });
    expect(stderr).toMatch(/dropped a \d+-byte message/);
    child.stdin.end();
    expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0);
  });
});
