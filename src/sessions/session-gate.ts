import type { Mode } from "../config/types.js";
import type { HistoryEventOf } from "../store/events.js";
import type { Store } from "../store/types.js";
import type { Tool, ToolContext, ToolPreview } from "../tools/types.js";
import { decide } from "./permissions.js";
import type { GateAnswer } from "./run-turn.js";
import type { ClientPort } from "./types.js";

export interface GateOptions {
  request: { call: HistoryEventOf<"tool_call">; tool: Tool; args: unknown; preview: ToolPreview };
  signal: AbortSignal;
  mode: Mode;
  /** Whether commands of this call would run confined by the sandbox. */
  sandboxed: boolean;
  roots: string[];
  projectRoot: string;
  store: Store;
  client: ClientPort | undefined;
  ctx: ToolContext;
  /** The session's plan file (plan mode lets the model write it). */
  planFile?: string;
}

const REJECTED = "The user rejected this action. Do not try it again; continue another way or ask the user.";

/**
 * Decides one tool call: stored rules and the mode table first, then the editor. "Always"
 * answers become project rules in the store, so they survive restarts.
 */
export async function gateCall(options: GateOptions): Promise<GateAnswer> {
  const { request, mode, store, projectRoot } = options;
  const access = request.tool.access(request.args, options.ctx);
  const verdict = decide({
    access,
    mode,
    sandboxed: options.sandboxed,
    roots: options.roots,
    rules: store.rules(projectRoot),
    ...(options.planFile ? { planFile: options.planFile } : {}),
  });
  const allowed = verdict.unconfined ? "allow_unconfined" : "allow";
  if (verdict.decision === "allow") return allowed;
  if (verdict.decision === "deny") return { rejected: `Not allowed: ${verdict.reason}.` };
  if (!options.client)
    return { rejected: "Not allowed: no editor is attached to answer the permission request." };

  const answer = await options.client.askPermission(
    {
      callId: request.call.callId,
      title: request.preview.title,
      kind: request.tool.kind,
      locations: request.preview.locations ?? [],
      display: request.preview.display ?? [],
      input: safeJson(request.call.arguments),
      alwaysLabel: verdict.ruleLabel
        ? `Always allow ${verdict.ruleLabel} in this project`
        : "Always allow in this project",
    },
    options.signal,
  );
  const remember = (decision: "allow" | "deny") => {
    if (verdict.ruleKey) store.setRule({ project: projectRoot, key: verdict.ruleKey, decision });
  };
  switch (answer) {
    case "allow_once":
      return allowed;
    case "allow_always":
      remember("allow");
      return allowed;
    case "reject_always":
      remember("deny");
      return { rejected: REJECTED };
    case "reject_once":
      return { rejected: REJECTED };
    case "cancelled":
      return "cancelled";
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
