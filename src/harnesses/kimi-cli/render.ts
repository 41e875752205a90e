import type { Message, UserPart } from "../../providers/model-request.js";
import type { HistoryEvent } from "../../store/events.js";
import type { Tool } from "../../tools/types.js";
import type { CallIntent, WireCall } from "../shared/adopt-call.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { INTERRUPTED_OUTPUT } from "../shared/user-content.js";
import { repeatReminders } from "./repeat-reminders.js";
import { taskNotification } from "./tasks.js";

export const EMPTY_OUTPUT = "<system>Tool output is empty.</system>";

/**
 * The conversation as Kimi CLI 1.49.0 sends it (kosong `chat_provider/kimi.py`, `soul/message.py`):
 * call ids and arguments as the model gave them; reasoning sent back as `reasoning_content` where
 * there was some; every tool message in its `<system>` form: the status line and the output as
 * two text parts (one part alone is sent as a plain string), a failure from outside the tool
 * (unknown tool, bad arguments, a refusal, another harness's error) as `<system>ERROR: …</system>`,
 * an empty result as its own status line; an image result as parts inside the tool message; a
 * background task's end as its `<notification>` user message where it arrived; the repeated-call
 * reminders after a result's output.
 */
export function renderKimiCliMessages(history: HistoryEvent[], tools: readonly Tool[]): Message[] {
  const reminders = repeatReminders(history);
  const messages = renderChatMessages(history, {
    harness: "kimi-cli",
    tools,
    adopt: adoptKimiCliCall,
    resultText: ({ call, result }) => {
      const reminder = reminders.get(call.callId) ?? "";
      if (!result) return errorText(INTERRUPTED_OUTPUT) + reminder;
      if (result.status !== "completed") return errorText(result.output) + reminder;
      return (result.output.trim() === "" ? EMPTY_OUTPUT : result.output) + reminder;
    },
    imagesInside: true,
    // 1.49.0 sends each message it added as its own, never joined.
    joinUsers: false,
    // 1.49.0 adds a background task's end as a user message before the next step.
    backgroundEnded: { text: taskNotification, at: "place" },
  });
  return messages.map((message) => {
    if (message.role !== "tool" || message.content.length !== 1 || message.content[0]?.type !== "text")
      return message;
    const parts = systemParts(message.content[0].text);
    return parts.length > 1 ? { ...message, content: parts, asParts: true } : message;
  });
}

export function errorText(text: string): string {
  return text.startsWith("<system>ERROR:") ? text : `<system>ERROR: ${kosongError(text)}</system>`;
}

/**
 * The session's words for a call that never ran, in kosong's (`tooling/error.py`) and 1.49.0's
 * (`tools/utils.py` `ToolRejectedError`): an unknown tool, arguments that are not JSON or do not
 * fit the schema, the user's refusal. Anything else is kept.
 */
function kosongError(text: string): string {
  const unknown = /^unsupported call: (.*) \(available tools: .*\)$/s.exec(text);
  if (unknown) return `Tool \`${unknown[1]}\` not found`;
  const invalid =
    /^failed to parse function arguments for [^:]+: (.*)\. Call it again with valid JSON matching its schema\.$/s.exec(
      text,
    );
  if (invalid) {
    const json = /JSON|Unexpected|position/.test(invalid[1] ?? "");
    return `Error ${json ? "parsing" : "validating"} JSON arguments: ${invalid[1]}`;
  }
  if (text.startsWith("The user rejected this action."))
    return "The tool call is rejected by the user. Stop what you are doing and wait for the user to tell you how to proceed.";
  return text;
}

/** A leading `<system>…</system>` status line and what follows it, as the separate parts 1.49.0 sends. */
function systemParts(text: string): UserPart[] {
  const end = text.startsWith("<system>") ? text.indexOf("</system>") : -1;
  if (end < 0 || end + "</system>".length === text.length) return [{ type: "text", text }];
  const head = text.slice(0, end + "</system>".length);
  return [
    { type: "text", text: head },
    { type: "text", text: text.slice(head.length) },
  ];
}

/**
 * A call made under another harness in Kimi CLI's terms, by what it asks for: a command becomes
 * `Shell`, a read `ReadFile`, a whole-file write `WriteFile`, one replacement `StrReplaceFile`.
 * Anything else has no faithful counterpart and is shown as text.
 */
function adoptKimiCliCall(intent: CallIntent): WireCall | undefined {
  const out = (name: string, value: Record<string, unknown>) => ({ name, arguments: JSON.stringify(value) });
  const file = intent.path;
  switch (intent.capability) {
    case "exec":
      return intent.command === undefined ? undefined : out("Shell", { command: intent.command });
    case "read":
      return file
        ? out("ReadFile", {
            path: file,
            ...(intent.offset !== undefined ? { line_offset: intent.offset } : {}),
            ...(intent.limit !== undefined ? { n_lines: intent.limit } : {}),
          })
        : undefined;
    case "write":
      return file && intent.content !== undefined
        ? out("WriteFile", { path: file, content: intent.content })
        : undefined;
    case "edit":
      return file && intent.oldString !== undefined && intent.newString !== undefined
        ? out("StrReplaceFile", {
            path: file,
            edit: {
              old: intent.oldString,
              new: intent.newString,
              ...(intent.replaceAll ? { replace_all: true } : {}),
            },
          })
        : undefined;
    default:
      return undefined;
  }
}
