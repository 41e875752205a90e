import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { ndJsonStream, type Stream } from "@agentclientprotocol/sdk/unstable";
import { createAcpValidator } from "./acp-schema.js";
import { TEST_CEILING } from "./ceiling.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(ROOT, "bin/interpreter.js");
/** The installed command: starts from the V8 snapshot when it matches this node (bin/interpreter). */
export const LAUNCHER = path.join(ROOT, "bin/interpreter");

export interface AgentProcess {
  child: ChildProcess;
  /** Give this to the SDK client: `client(...).connectWith(agent.stream, ...)`. */
  stream: Stream;
  /** Every line the agent wrote to stdout, in order. */
  lines: string[];
  /** Lines that were not valid JSON-RPC or failed the ACP schema. */
  violations: string[];
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns `bin/interpreter acp` (the launcher users run, so the snapshot path) with a clean environment and checks every line it writes
 * against the SDK's JSON schema while passing it on to the test's client. The agent runs
 * in-process (`--in-process`): the process the test kills or closes is the agent itself.
 * `proxy: true` spawns the default, a proxy to the shared daemon of `home` (test/daemon-*.test.ts).
 */
export function spawnAgent(options: {
  home: string;
  env?: Record<string, string>;
  args?: string[];
  proxy?: boolean;
}): AgentProcess {
  const mode = options.proxy ? [] : ["--in-process"];
  const child = spawn(LAUNCHER, ["acp", ...mode, ...(options.args ?? [])], {
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.home,
      INTERPRETER_HOME: options.home,
      ...TEST_CEILING,
      ...options.env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const validator = createAcpValidator();
  const sent = new Map<unknown, string>();
  const lines: string[] = [];
  const violations: string[] = [];

  const toAgent = Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>;
  const writer = toAgent.getWriter();
  const decoder = new TextDecoder();
  const output = new WritableStream<Uint8Array>({
    async write(chunk) {
      for (const line of decoder.decode(chunk, { stream: true }).split("\n")) {
        if (!line.trim()) continue;
        const message = JSON.parse(line) as { id?: unknown; method?: string };
        if (message.method && message.id !== undefined) sent.set(message.id, message.method);
      }
      await writer.write(chunk);
    },
    close: () => writer.close(),
  });

  let buffer = "";
  const encoder = new TextEncoder();
  const lineDecoder = new TextDecoder();
  const fromAgent = Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>;
  const input = fromAgent.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffer += lineDecoder.decode(chunk, { stream: true });
        let newline = buffer.indexOf("\n");
        while (newline >= 0) {
          const line = buffer.slice(0, newline);
          buffer = buffer.slice(newline + 1);
          newline = buffer.indexOf("\n");
          lines.push(line);
          try {
            validator.check(JSON.parse(line) as Record<string, unknown>, sent);
          } catch (error) {
            violations.push(error instanceof Error ? error.message : String(error));
          }
          controller.enqueue(encoder.encode(`${line}\n`));
        }
      },
    }),
  );
  return { child, stream: ndJsonStream(output, input), lines, violations, stderr: () => stderr, exited };
}
