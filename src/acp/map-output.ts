import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk/unstable";
import type { SessionOutput } from "../sessions/types.js";
import type { DisplayContent, HistoryEvent, HistoryEventOf } from "../store/events.js";
import { fence } from "../tools/markdown-fence.js";
import { toConfigOptions } from "./config-options.js";

const INTERRUPTED_CALL = "Interrupted: the agent stopped before this call finished.";
const INTERRUPTED_TURN = "\n\n_This turn was interrupted: the agent stopped before it finished._\n";

/** What the editor advertised in `initialize` that changes how outputs are shown. */
export interface ClientFeatures {
  /** `clientCapabilities.session.compaction`: compaction updates instead of plain text. */
  compaction?: boolean;
  /** `clientCapabilities.elicitation.form`: the model's questions go as forms. */
  forms?: boolean;
  /** `clientCapabilities._meta["openinterpreter/unattended"]`: nobody answers questions (exec, MCP server). */
  unattended?: boolean;
  /** `clientCapabilities.subagents` (unstable): subagents show as child sessions of their parent. */
  subagents?: boolean;
}

/** Pure mapping of one session output onto the ACP `session/update`s that show it. */
export function toSessionUpdates(output: SessionOutput, client: ClientFeatures = {}): SessionUpdate[] {
  switch (output.type) {
    case "event":
      return eventUpdates(output.event, client);
    case "finished_call":
      // The result's fields replace the call's, as a `tool_call_update` would.
      return [{ ...toolCall(output.call), ...toolResult(output.result) }];
    case "compaction":
      if (client.compaction) {
        const { compactionId, status, error } = output;
        return [{ sessionUpdate: "compaction_update", compactionId, status, ...(error ? { error } : {}) }];
      }
      return output.status === "in_progress" ? [agentText("\n\n_Compacting the conversation…_\n")] : [];
    case "tool_started":
      return [{ sessionUpdate: "tool_call_update", toolCallId: output.callId, status: "in_progress" }];
    case "tool_progress":
      return [
        {
          sessionUpdate: "tool_call_update",
          toolCallId: output.callId,
          content: [textContent(fence(output.text))],
        },
      ];
    case "interrupted":
      return [
        ...output.openCallIds.map(
          (toolCallId): SessionUpdate => ({
            sessionUpdate: "tool_call_update",
            toolCallId,
            status: "failed",
            content: [textContent(INTERRUPTED_CALL)],
          }),
        ),
        agentText(INTERRUPTED_TURN),
      ];
    case "title":
      return [{ sessionUpdate: "session_info_update", title: output.title, updatedAt: output.updatedAt }];
    case "options":
      return [
        { sessionUpdate: "config_option_update", configOptions: toConfigOptions(output.options) },
        { sessionUpdate: "current_mode_update", currentModeId: output.options.mode },
      ];
    case "question":
      return output.status === "pending"
        ? [
            {
              sessionUpdate: "tool_call",
              toolCallId: output.callId,
              title: output.title,
              kind: "other",
              status: "pending",
            },
          ]
        : [{ sessionUpdate: "tool_call_update", toolCallId: output.callId, status: output.status }];
    case "commands":
      return [
        {
          sessionUpdate: "available_commands_update",
          availableCommands: output.commands.map((c) => ({
            name: c.name,
            description: c.description,
            ...(c.hint ? { input: { hint: c.hint } } : {}),
          })),
        },
      ];
  }
}

function eventUpdates(event: HistoryEvent, client: ClientFeatures): SessionUpdate[] {
  switch (event.type) {
    case "user_message":
      return event.content.map((content) => ({
        sessionUpdate: "user_message_chunk",
        content: content as never,
      }));
    case "assistant_message": {
      const updates: SessionUpdate[] = [];
      if (event.reasoning) {
        updates.push({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: event.reasoning },
        });
      }
      if (event.text) updates.push(agentText(event.text));
      return updates;
    }
    case "tool_call":
      return [toolCall(event)];
    case "tool_result":
      return [{ sessionUpdate: "tool_call_update", toolCallId: event.callId, ...toolResult(event) }];
    case "plan":
      return [{ sessionUpdate: "plan", entries: event.entries }];
    case "usage":
      // A tool's side request says nothing about how full the conversation's context is.
      if (event.purpose === "tool") return [];
      return [
        {
          sessionUpdate: "usage_update",
          used: event.contextUsed,
          size: event.contextSize,
          // The session's running cost, known when the model has prices in config.
          ...(event.sessionCost !== undefined && event.currency
            ? { cost: { amount: event.sessionCost, currency: event.currency } }
            : {}),
        },
      ];
    case "notice":
      return [
        {
          ...agentText(
            event.severity === "info"
              ? `${event.text}\n`
              : `\n\n**${capital(event.severity)}:** ${event.text}\n`,
          ),
          // Lets a client tell our notices from the model's words (and a notice about the machine).
          _meta: {
            [NOTICE_META]: { severity: event.severity, ...(event.topic ? { topic: event.topic } : {}) },
          },
        } as SessionUpdate,
      ];
    case "background_ended":
      return [
        {
          ...agentText(`${backgroundEndedText(event)}\n`),
          _meta: { [NOTICE_META]: { severity: event.status === "completed" ? "info" : "warning" } },
        } as SessionUpdate,
      ];
    case "compaction":
      if (client.compaction) {
        return [
          {
            sessionUpdate: "compaction_update",
            // Rows from before compactions had ids: the event count is unique within a session.
            compactionId: event.id ?? `compaction-${event.replaced}`,
            status: "completed",
            summary: [{ type: "text", text: event.summary }],
          },
        ];
      }
      return [
        agentText(`\n\n_Conversation compacted: ${event.replaced} earlier events are now a summary._\n`),
      ];
    case "turn_started":
    case "turn_ended":
    case "format_error":
    case "harness_changed":
    case "model_changed":
    case "mode_changed":
      return [];
  }
}

function toolCall(
  event: HistoryEventOf<"tool_call">,
): Extract<SessionUpdate, { sessionUpdate: "tool_call" }> {
  return {
    sessionUpdate: "tool_call",
    toolCallId: event.callId,
    title: event.title,
    name: event.name,
    kind: event.kind,
    status: "pending",
    locations: event.locations,
    content: event.display.map(displayContent),
    rawInput: parseRaw(event.arguments),
  };
}

function toolResult(event: HistoryEventOf<"tool_result">) {
  const content = event.display.map(displayContent);
  // The images the model was shown, shown to the user too.
  for (const part of event.parts ?? []) {
    if (part.type === "image") {
      content.push({ type: "content", content: { type: "image", mimeType: part.mimeType, data: part.data } });
    }
  }
  const failed = event.status !== "completed";
  // Failures and rejections show what the model was told when there is nothing else to show.
  if (failed && !event.display.some((d) => d.type === "text")) content.push(textContent(event.output));
  return {
    status: failed ? ("failed" as const) : ("completed" as const),
    content,
    rawOutput: { output: event.output },
  };
}

function displayContent(display: DisplayContent): ToolCallContent {
  if (display.type === "diff") {
    return { type: "diff", path: display.path, oldText: display.oldText, newText: display.newText };
  }
  return textContent(display.text);
}

function textContent(text: string): ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

/** The `_meta` key of an agent message chunk that is one of our notices, not the model's text. */
export const NOTICE_META = "openinterpreter/notice";

function agentText(text: string): SessionUpdate {
  return { sessionUpdate: "agent_message_chunk", content: { type: "text", text } };
}

function parseRaw(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { arguments: text };
  }
}

/** One line for the editor about a background command that ended. */
export function backgroundEndedText(event: HistoryEventOf<"background_ended">): string {
  const how =
    event.status === "completed" || event.status === "failed"
      ? `exited with code ${event.exitCode ?? "?"}`
      : event.status === "timed_out"
        ? "was stopped by its time limit"
        : "was killed";
  return `Background command \`${event.id}\` ${how}: \`${oneLine(event.command)}\``;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

function capital(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
