import type { Mode } from "../config/types.js";
import type { HistoryEventOf } from "../store/events.js";
import type { Store } from "../store/types.js";
import type { SubagentPort } from "../tools/agents/types.js";
import type { PlanPort } from "../tools/ask/types.js";
import type { BackgroundProcesses } from "../tools/exec/background-processes.js";
import type { ModelPort, Tool, ToolContext, ToolResult } from "../tools/types.js";
import type { WebAccess } from "../tools/web/types.js";
import { userPort } from "./plan-mode.js";
import type { TurnOptions } from "./run-turn.js";
import type { SessionWorkspace } from "./session-deps.js";
import { gateCall } from "./session-gate.js";
import { ToolProgress } from "./tool-progress.js";
import type { ClientPort, SessionOutput } from "./types.js";

/**
 * The tool side of one turn: what each call runs with (its context, confined or escalated),
 * the permission gate in the session's mode, and live progress that stops the moment the
 * call or the turn has ended (output batched just before must not reach the editor after it).
 * Building it starts the session's confined helper in the background (`SandboxedExec.warm`).
 */
export function turnTools(o: {
  tools: Tool[];
  harness: { id: string; toolError?: (text: string) => string };
  signal: AbortSignal;
  /** Aborts when the session closes. */
  sessionSignal: AbortSignal;
  sessionId: string;
  /** Read at each call: the mode and the roots may change while a turn runs. */
  where(): { cwd: string; roots: string[]; mode: Mode };
  workspace: SessionWorkspace;
  /** The session's background processes (they outlive a call, some a turn). */
  background: BackgroundProcesses;
  store: Store;
  client: ClientPort | undefined;
  /** Whether progress for this call may still be shown. */
  live(callId: string): boolean;
  send(output: SessionOutput): void;
  economize?: (call: HistoryEventOf<"tool_call">, result: ToolResult) => Promise<ToolResult>;
  /** The web tools' HTTP and settings. */
  web?: WebAccess;
  /** Side requests of this turn's tools. */
  model?: ModelPort;
  /** The session's plan mode and plan file. */
  plan?: PlanPort;
  /** Where this turn's subagent calls start their child sessions. */
  subagents?: SubagentPort;
}): TurnOptions["tools"] {
  const { workspace, signal } = o;
  const user = userPort(o.client);
  const { roots, mode } = o.where();
  workspace.sandbox.warm({ mode, roots, session: o.sessionId });
  const context = (callId: string, options?: { unconfined?: boolean }): ToolContext => {
    const { cwd, roots, mode } = o.where();
    const progress = new ToolProgress((text) => {
      if (o.live(callId)) o.send({ type: "tool_progress", callId, text });
    });
    return {
      sessionId: o.sessionId,
      cwd,
      roots,
      signal,
      sessionSignal: o.sessionSignal,
      callId,
      fs: workspace.fs,
      exec: workspace.sandbox.exec({
        mode,
        roots,
        escalated: options?.unconfined ?? false,
        session: o.sessionId,
      }),
      background: o.background,
      onProgress: (chunk) => progress.add(chunk),
      ...(o.web ? { web: o.web } : {}),
      ...(o.model ? { model: o.model } : {}),
      ...(user ? { user } : {}),
      ...(o.plan ? { plan: o.plan } : {}),
      ...(o.subagents ? { subagents: o.subagents } : {}),
    };
  };
  return {
    list: o.tools,
    harnessId: o.harness.id,
    ...(o.harness.toolError ? { toolError: o.harness.toolError } : {}),
    ...(o.economize ? { economize: o.economize } : {}),
    started: (callId) => o.send({ type: "tool_started", callId }),
    context,
    gate: async (request) => {
      const { roots, mode } = o.where();
      return gateCall({
        request,
        signal,
        sandboxed: await workspace.sandbox.confines({ mode, roots }),
        mode,
        roots,
        projectRoot: workspace.projectRoot,
        store: o.store,
        client: o.client,
        ctx: context(request.call.callId),
        ...(o.plan ? { planFile: o.plan.file } : {}),
      });
    },
  };
}
