import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ClientContext, methods, type NewSessionResponse } from "@agentclientprotocol/sdk/unstable";
import { createAgentApp } from "../../src/acp/agent-app.js";
import { createRuntime, type Runtime } from "../../src/cli/runtime.js";
import type { CliOverrides } from "../../src/config/types.js";
import type { Harness, HarnessEntry } from "../../src/harnesses/types.js";
import { TEST_CEILING } from "./ceiling.js";
import type { FakeModel } from "./fake-model.js";
import { INIT, testClient } from "./test-client.js";

export interface InProcessAgent {
  home: string;
  runtime: Runtime;
  editor: ReturnType<typeof testClient>;
  agent: ClientContext;
  /** A fresh workspace folder plus a session in it. */
  newSession(options?: { cwd?: string }): Promise<NewSessionResponse & { cwd: string }>;
  prompt(sessionId: string, text: string): Promise<string>;
  close(): Promise<void>;
}

export function tempDir(prefix = "oi-test-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The daemon's real runtime (SQLite file, config file, local exec) connected in-process to
 * the official SDK client. Only the model is fake.
 */
export async function startInProcess(options: {
  model: FakeModel;
  home?: string;
  configToml?: string;
  cli?: CliOverrides;
  env?: Record<string, string>;
  /** Run with exactly these harnesses (loaded or as listed) instead of the built-in list. */
  harnesses?: Array<Harness | HarnessEntry>;
  /** What the editor advertises in `initialize` beyond the defaults (e.g. elicitation forms). */
  clientCapabilities?: Record<string, unknown>;
}): Promise<InProcessAgent> {
  const home = options.home ?? tempDir("oi-home-");
  if (options.configToml !== undefined) writeFileSync(path.join(home, "config.toml"), options.configToml);
  const runtime = createRuntime({
    harnesses: options.harnesses?.map((h) => ("load" in h ? h : { ...h, load: async () => h })),
    cli: { model: "mock-model", ...options.cli },
    env: {
      INTERPRETER_HOME: home,
      ...TEST_CEILING,
      HOME: home,
      OPENAI_BASE_URL: options.model.url,
      OPENAI_API_KEY: "sk-test-key",
      PATH: process.env.PATH,
      ...options.env,
    },
  });
  const app = createAgentApp({ manager: runtime.manager, logger: runtime.logger, version: "test" });
  const editor = testClient();
  const connection = editor.app.connect(app);
  await connection.agent.request(methods.agent.initialize, {
    ...INIT,
    clientCapabilities: { ...INIT.clientCapabilities, ...options.clientCapabilities },
  });
  return {
    home,
    runtime,
    editor,
    agent: connection.agent,
    async newSession(opts = {}) {
      const cwd = opts.cwd ?? tempDir("oi-ws-");
      const response = await connection.agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
      return { ...response, cwd };
    },
    async prompt(sessionId, text) {
      const response = await connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text }],
      });
      return response.stopReason;
    },
    async close() {
      connection.close();
      await runtime.shutdown();
    },
  };
}

/** Resolves once `predicate` holds, polling (for async updates such as post-response notifications). */
export async function until(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
