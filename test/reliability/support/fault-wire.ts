import { writeFileSync } from "node:fs";
import path from "node:path";
import { type ClientContext, methods } from "@agentclientprotocol/sdk/unstable";
import type { FakeModel } from "../../support/fake-model.js";
import { tempDir } from "../../support/in-process.js";
import { type AgentProcess, spawnAgent } from "../../support/spawn-agent.js";
import { INIT, testClient } from "../../support/test-client.js";

/** One JSON-RPC message the agent wrote, with its position on the wire. */
export interface WireMessage {
  index: number;
  // biome-ignore lint/suspicious/noExplicitAny: protocol messages are checked against the schema by spawnAgent
  msg: Record<string, any>;
}

export interface WireAgent {
  process: AgentProcess;
  editor: ReturnType<typeof testClient>;
  agent: ClientContext;
  home: string;
  /** Position on the wire now: messages written from here on have `index >= mark()`. */
  mark(): number;
  /** Every message the agent wrote from `from` on, in the order it wrote them. */
  wire(from?: number): WireMessage[];
  newSession(params?: { mcpServers?: unknown[] }): Promise<{ sessionId: string; cwd: string }>;
  /** Ends stdin and waits for the daemon to exit. */
  close(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `bin/interpreter.js acp` as a subprocess driven by the SDK client: the wire order of
 * updates and answers is exactly what an editor reads, so "nothing after the answer" can be
 * checked line by line.
 */
export async function startWireAgent(options: { model: FakeModel; configToml?: string }): Promise<WireAgent> {
  const home = tempDir("oi-home-");
  if (options.configToml) writeFileSync(path.join(home, "config.toml"), options.configToml);
  const daemon = spawnAgent({
    home,
    env: { OPENAI_BASE_URL: options.model.url, OPENAI_API_KEY: "sk-test-key" },
    args: ["-m", "mock-model"],
  });
  const editor = testClient();
  const connection = editor.app.connect(daemon.stream);
  await connection.agent.request(methods.agent.initialize, INIT);
  return {
    process: daemon,
    editor,
    agent: connection.agent,
    home,
    mark: () => daemon.lines.length,
    wire: (from = 0) =>
      daemon.lines
        .slice(from)
        .map((line, i) => ({ index: from + i, msg: JSON.parse(line) as WireMessage["msg"] })),
    async newSession(params = {}) {
      const cwd = tempDir("oi-ws-");
      const { sessionId } = await connection.agent.request(methods.agent.session.new, {
        cwd,
        mcpServers: (params.mcpServers ?? []) as never,
      });
      return { sessionId, cwd };
    },
    async close() {
      daemon.child.stdin?.end();
      return daemon.exited;
    },
  };
}

/** What the editor saw of one turn on the wire, from `from` on. */
export function turnOnWire(messages: WireMessage[], sessionId: string) {
  const answers = messages.filter((m) => m.msg.id !== undefined && m.msg.result?.stopReason !== undefined);
  const errors = messages.filter((m) => m.msg.error !== undefined);
  const answeredAt = answers[0]?.index ?? Number.POSITIVE_INFINITY;
  const late = messages.filter(
    (m) => m.index > answeredAt && m.msg.method === "session/update" && m.msg.params?.sessionId === sessionId,
  );
  return {
    stopReasons: answers.map((m) => m.msg.result.stopReason as string),
    errors: errors.map((m) => JSON.stringify(m.msg.error)),
    /** `session/update`s for the session written after the prompt's answer. */
    late: late.map((m) => JSON.stringify(m.msg.params.update).slice(0, 200)),
    /** Requests the agent withdrew with `$/cancel_request`. */
    withdrawn: messages.filter((m) => m.msg.method === "$/cancel_request").map((m) => m.msg.params.requestId),
    requests: messages.filter((m) => m.msg.method !== undefined && m.msg.id !== undefined),
  };
}

/** The last status the editor was given for `callId` before the prompt's answer. */
export function statusAtAnswer(messages: WireMessage[], callId: string): string | undefined {
  const answeredAt = messages.find((m) => m.msg.result?.stopReason !== undefined)?.index ?? Infinity;
  return messages
    .filter((m) => m.index < answeredAt && m.msg.params?.update?.toolCallId === callId)
    .map((m) => m.msg.params.update.status as string | undefined)
    .filter((status) => status !== undefined)
    .at(-1);
}
