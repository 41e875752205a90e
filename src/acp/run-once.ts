import { client, methods, type SessionNotification } from "@agentclientprotocol/sdk";
import type { Logger } from "../config/logger.js";
import type { Mode } from "../config/types.js";
import type { SessionManager } from "../sessions/session-manager.js";
import { createAgentApp } from "./agent-app.js";

export interface RunOnceOptions {
  manager: SessionManager;
  logger: Logger;
  version: string;
  cwd: string;
  prompt: string;
  mode?: Mode;
  progress: RunProgress;
}

/** What a one-shot run reports as it goes. */
export interface RunProgress {
  text(chunk: string): void;
  toolStarted(title: string): void;
  toolFinished(title: string, ok: boolean): void;
  /** A call needed approval; nobody can answer here, so it was rejected. */
  rejected(title: string): void;
}

/**
 * One prompt through the same ACP agent the editors use, driven by an in-process SDK client.
 * Resolves with the stop reason; rejects with the agent's error (e.g. the endpoint failed).
 */
export async function runOnce(options: RunOnceOptions): Promise<string> {
  const agentApp = createAgentApp({
    manager: options.manager,
    logger: options.logger,
    version: options.version,
  });
  const editor = client({ name: "interpreter-exec" })
    .onNotification(methods.client.session.update, progressReporter(options.progress))
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      options.progress.rejected(params.toolCall.title ?? "tool call");
      return { outcome: { outcome: "selected", optionId: "reject_once" } };
    });
  return editor.connectWith(agentApp, async (agent) => {
    await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: "interpreter-exec", version: options.version },
    });
    const { sessionId } = await agent.request(methods.agent.session.new, {
      cwd: options.cwd,
      mcpServers: [],
    });
    if (options.mode) await agent.request(methods.agent.session.setMode, { sessionId, modeId: options.mode });
    const response = await agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: options.prompt }],
    });
    return response.stopReason;
  });
}

function progressReporter(progress: RunProgress) {
  const titles = new Map<string, string>();
  return ({ params: { update } }: { params: SessionNotification }) => {
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") {
      progress.text(update.content.text);
    } else if (update.sessionUpdate === "tool_call") {
      titles.set(update.toolCallId, update.title);
      progress.toolStarted(update.title);
    } else if (
      update.sessionUpdate === "tool_call_update" &&
      (update.status === "completed" || update.status === "failed")
    ) {
      progress.toolFinished(
        titles.get(update.toolCallId) ?? update.toolCallId,
        update.status === "completed",
      );
    }
  };
}
