import {
  type ContentBlock,
  client,
  methods,
  type SessionNotification,
} from "@agentclientprotocol/sdk/unstable";
import type { Mode } from "../config/types.js";
import { UNATTENDED } from "./agent-app.js";
import { type AgentLink, agentTarget } from "./agent-link.js";
import { type RunEvent, toRunEvents } from "./run-events.js";
import { type RunUsage, turnUsage } from "./run-usage.js";

export type { RunDiff, RunEvent } from "./run-events.js";
export type { RunUsage } from "./run-usage.js";

export interface RunImage {
  mimeType: string;
  /** Base64. */
  data: string;
}

export type RunOnceOptions = AgentLink & RunSpec;

export interface RunSpec {
  version: string;
  cwd: string;
  additionalDirectories?: string[];
  /** Text blocks of the prompt, in order (e.g. the prompt, then an output-schema instruction). */
  prompt: string[];
  images?: RunImage[];
  /** Continue this stored session (`"last"`: the newest one in `cwd`) instead of starting one. */
  resume?: string;
  mode?: Mode;
  /** Switch the session to this model (a no-op when it already runs on it). */
  model?: string;
  /** Switch the session to this harness; an unknown id or one off the endpoint's wire throws. */
  harness?: string;
  /** Aborting sends `session/cancel`; the run then resolves with stop reason `cancelled`. */
  signal?: AbortSignal;
  /** The session is ready; called before any event. */
  onSession?(sessionId: string): void;
  onEvent(event: RunEvent): void;
  /**
   * Someone who can answer permission requests (e.g. an MCP client through elicitation):
   * resolves true to allow once. Without it, every request is rejected.
   */
  askPermission?(request: { title: string; callId: string }): Promise<boolean>;
}

export interface RunResult {
  sessionId: string;
  stopReason: string;
  usage?: RunUsage;
}

/** No stored session matched `resume`. */
export class ResumeError extends Error {
  readonly code = "session_not_found";
}

/**
 * One prompt through the same ACP agent the editors use (in this process or the shared
 * daemon's, `AgentLink`), driven by the official SDK client.
 * Permission requests go to `askPermission` when given; refused ones are reported as `rejected` events.
 * Resolves with the stop reason; rejects with the agent's error (e.g. the endpoint failed).
 */
export async function runOnce(options: RunOnceOptions): Promise<RunResult> {
  let sessionId: string | undefined;
  const emit = (event: RunEvent) => options.onEvent(event);
  const editor = client({ name: "interpreter-exec" })
    .onNotification(methods.client.session.update, ({ params }: { params: SessionNotification }) => {
      if (params.sessionId === sessionId) for (const event of toRunEvents(params.update)) emit(event);
    })
    .onRequest(methods.client.session.requestPermission, async ({ params }) => {
      const asked = { title: params.toolCall.title ?? "tool call", callId: params.toolCall.toolCallId };
      if (options.askPermission && (await options.askPermission(asked))) {
        const allow = params.options.find((option) => option.kind === "allow_once");
        if (allow) return { outcome: { outcome: "selected", optionId: allow.optionId } };
      }
      emit({
        type: "rejected",
        callId: params.toolCall.toolCallId,
        title: params.toolCall.title ?? "tool call",
      });
      return { outcome: { outcome: "selected", optionId: "reject_once" } };
    });
  return editor.connectWith(agentTarget(options, options.version), async (agent) => {
    await agent.request(methods.agent.initialize, {
      protocolVersion: 1,
      // Nobody reads questions here: the model is told so instead of waiting.
      clientCapabilities: { _meta: { [UNATTENDED]: true } },
      clientInfo: { name: "interpreter-exec", version: options.version },
    });
    const additionalDirectories = options.additionalDirectories ?? [];
    if (options.resume) {
      let id = options.resume;
      if (id === "last") {
        const { sessions } = await agent.request(methods.agent.session.list, { cwd: options.cwd });
        const newest = sessions[0];
        if (!newest) throw new ResumeError(`no session to resume in ${options.cwd}`);
        id = newest.sessionId;
      }
      try {
        await agent.request(methods.agent.session.resume, {
          sessionId: id,
          cwd: options.cwd,
          ...(additionalDirectories.length > 0 ? { additionalDirectories } : {}),
        });
      } catch (error) {
        throw new ResumeError(`cannot resume session ${id}: ${errorText(error)}`);
      }
      sessionId = id;
    } else {
      ({ sessionId } = await agent.request(methods.agent.session.new, {
        cwd: options.cwd,
        additionalDirectories,
        mcpServers: [],
      }));
    }
    const id = sessionId;
    if (options.mode)
      await agent.request(methods.agent.session.setMode, { sessionId: id, modeId: options.mode });
    if (options.model) {
      await agent.request(methods.agent.session.setConfigOption, {
        sessionId: id,
        configId: "model",
        value: options.model,
      });
    }
    if (options.harness) {
      await agent.request(methods.agent.session.setConfigOption, {
        sessionId: id,
        configId: "harness",
        value: options.harness,
      });
    }
    options.onSession?.(id);
    const cancel = () => void agent.notify(methods.agent.session.cancel, { sessionId: id });
    options.signal?.addEventListener("abort", cancel, { once: true });
    try {
      const prompt: ContentBlock[] = [
        ...options.prompt.map((text): ContentBlock => ({ type: "text", text })),
        ...(options.images ?? []).map((image): ContentBlock => ({ type: "image", ...image })),
      ];
      const response = await agent.request(methods.agent.session.prompt, { sessionId: id, prompt });
      const usage = turnUsage((response as { usage?: unknown }).usage);
      return { sessionId: id, stopReason: response.stopReason, ...(usage ? { usage } : {}) };
    } finally {
      options.signal?.removeEventListener("abort", cancel);
    }
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
