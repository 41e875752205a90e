import {
  type AgentContext,
  methods,
  type PermissionOption,
  type RequestPermissionResponse,
  type SessionUpdate,
  type StateUpdate,
} from "@agentclientprotocol/sdk/unstable";
import type { Logger } from "../config/logger.js";
import type { ClientPort, PermissionAnswer, PermissionQuestion, SubagentClient } from "../sessions/types.js";
import { type ClientFeatures, toSessionUpdates } from "./map-output.js";
import { choiceOptions, fromElicitation, toElicitation } from "./question-requests.js";

const OPTION_KINDS = ["allow_once", "allow_always", "reject_once", "reject_always"] as const;

/** The editor behind one ACP connection, as the session for `sessionId` sees it. */
interface ClientPortOptions {
  client: AgentContext;
  sessionId: string;
  logger: Logger;
  /** What the editor advertised in `initialize` (read at each send). */
  features?: ClientFeatures;
}

export function createClientPort(options: ClientPortOptions): ClientPort {
  const { client, sessionId, logger } = options;
  const notify = (update: SessionUpdate) =>
    // The SDK writes messages in call order; a failed write means the editor is gone.
    client.notify(methods.client.session.update, { sessionId, update }).catch((error: unknown) => {
      logger.debug({ err: String(error), sessionId }, "session/update not delivered");
    });
  return {
    send(output) {
      for (const update of toSessionUpdates(output, options.features)) notify(update);
    },
    subagent(child) {
      if (!options.features?.subagents) return undefined;
      return subagentPort(options, child, notify);
    },
    async askPermission(question, signal) {
      if (signal.aborted) return "cancelled";
      try {
        const response: RequestPermissionResponse = await client.request(
          methods.client.session.requestPermission,
          {
            sessionId,
            toolCall: {
              toolCallId: question.callId,
              title: question.title,
              kind: question.kind,
              status: "pending",
              locations: question.locations,
              rawInput: question.input,
              content: question.display.map((d) =>
                d.type === "diff"
                  ? { type: "diff" as const, path: d.path, oldText: d.oldText, newText: d.newText }
                  : { type: "content" as const, content: { type: "text" as const, text: d.text } },
              ),
            },
            options: permissionOptions(question),
          },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        );
        if (signal.aborted || response.outcome.outcome === "cancelled") return "cancelled";
        const chosen = response.outcome.optionId;
        return (OPTION_KINDS as readonly string[]).includes(chosen)
          ? (chosen as PermissionAnswer)
          : "reject_once";
      } catch (error) {
        if (!signal.aborted) logger.warn({ err: String(error), sessionId }, "permission request failed");
        return "cancelled";
      }
    },
    questions() {
      if (options.features?.unattended) return "none";
      return options.features?.forms ? "forms" : "choices";
    },
    async elicit(request, signal) {
      if (signal.aborted) return { action: "cancel" };
      try {
        const response = await client.request(
          methods.client.elicitation.create,
          toElicitation(sessionId, request),
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        );
        return signal.aborted ? { action: "cancel" } : fromElicitation(response);
      } catch (error) {
        if (!signal.aborted) logger.warn({ err: String(error), sessionId }, "elicitation failed");
        return { action: "cancel" };
      }
    },
    async choose(request, signal) {
      if (signal.aborted) return "cancelled";
      try {
        const response = await client.request(
          methods.client.session.requestPermission,
          {
            sessionId,
            toolCall: {
              toolCallId: request.callId,
              title: request.title,
              status: "pending",
              content: [{ type: "content", content: { type: "text", text: request.text } }],
            },
            options: choiceOptions(request),
          },
          { cancellationSignal: signal, stopWaitingOnCancel: true },
        );
        if (signal.aborted || response.outcome.outcome === "cancelled") return "cancelled";
        return response.outcome.optionId;
      } catch (error) {
        if (!signal.aborted) logger.warn({ err: String(error), sessionId }, "question request failed");
        return "cancelled";
      }
    },
  };
}

/**
 * ACP's subagent sessions (unstable): the child is announced on its parent with a
 * `subagent_update` before any of its own updates, which then carry its session id; its end
 * sets it idle with the stop reason.
 */
function subagentPort(
  parent: ClientPortOptions,
  child: { sessionId: string; title: string; description: string },
  notifyParent: (update: SessionUpdate) => void,
): SubagentClient {
  const announce = (state: StateUpdate) =>
    notifyParent({ sessionUpdate: "subagent_update", sessionId: child.sessionId, state });
  notifyParent({
    sessionUpdate: "subagent_update",
    sessionId: child.sessionId,
    title: child.title,
    description: child.description,
    state: { state: "running" },
  });
  return {
    ...createClientPort({ ...parent, sessionId: child.sessionId }),
    ended(stop) {
      if (stop.reason === "error")
        announce({ state: "idle", stopReason: "error", error: { code: -32603, message: stop.message } });
      else announce({ state: "idle", stopReason: stop.reason });
    },
  };
}

function permissionOptions(question: PermissionQuestion): PermissionOption[] {
  return [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    { optionId: "allow_always", name: question.alwaysLabel, kind: "allow_always" },
    { optionId: "reject_once", name: "Reject", kind: "reject_once" },
    {
      optionId: "reject_always",
      name: question.alwaysLabel.replace(/^Always allow/, "Always reject"),
      kind: "reject_always",
    },
  ];
}
