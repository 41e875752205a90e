import path from "node:path";
import type { Message, ModelRequest, TextPart } from "../../providers/model-request.js";
import type { HistoryEvent } from "../../store/events.js";
import type { Tool } from "../../tools/types.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { userContextReminder } from "../shared/claude-code-core/context-reminders.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { HarnessContext } from "../types.js";
import planReminder from "./plan-reminder.md";
import type { ZCodeState, ZCodeTodo } from "./zcode-state.js";

/** ZCode's `max_tokens` (upstream Open Interpreter 0.0.40 `zcode.rs`). */
export const ZCODE_MAX_TOKENS = 64_000;
/** Non-todo steps after which the TodoWrite reminder is sent. */
export const TODO_STALENESS = 10;

const TODO_REMINDER =
  "The TodoWrite tool has not been used for a while. If tracking progress would help the work at hand, use it; if the list has gone stale and no longer matches what you are doing, clean it up. Use it only where it is relevant. This is a gentle reminder; ignore it if it does not apply.";

/**
 * A ZCode request on Anthropic Messages, laid out as upstream Open Interpreter 0.0.40 renders it:
 * the first user message opens with the date reminder (AGENTS.md under its `# claudeMd` key),
 * the session's skills follow the first prompt, the todo reminder follows a batch of results
 * once ten steps went by without TodoWrite or TodoRead, the plan-mode and todo reminders follow
 * an EnterPlanMode result; the newest prompt (or a lone trailing result) carries the one cache
 * breakpoint after the three cached system blocks. Upstream sends its in-conversation reminders
 * as `system`-role messages, which only Z.AI's endpoint accepts; here they are user text in the
 * same places.
 */
export function renderZCode(options: {
  history: HistoryEvent[];
  tools: Tool[];
  ctx: HarnessContext;
  system: TextPart[];
  state: ZCodeState;
}): ModelRequest {
  const { ctx, state } = options;
  state.todos = latestTodos(options.history);
  for (const file of filesTouched(options.history, ctx.cwd)) state.sawEarlier(file);
  const rendered = renderChatMessages(options.history, { tools: options.tools, harness: "zcode" });
  const names = new Map<string, string>();
  let todoSnapshot: ZCodeTodo[] | undefined;
  let sinceTodo = 0;
  const step = (name: string | undefined): string | undefined => {
    if (name === "TodoWrite" || name === "TodoRead") {
      sinceTodo = 0;
      return undefined;
    }
    if (name === undefined || ++sinceTodo < TODO_STALENESS) return undefined;
    sinceTodo = 0;
    return todoReminder(todoSnapshot, false);
  };
  const messages: Message[] = [];
  let firstUser = true;
  let batch: string | undefined;
  const flush = () => {
    if (batch) messages.push({ role: "developer", content: [{ type: "text", text: batch }] });
    batch = undefined;
  };
  for (const message of rendered) {
    if (message.role !== "tool") flush();
    if (message.role === "assistant") {
      for (const part of message.content)
        if (part.type === "tool_call") {
          names.set(part.id, part.name);
          if (part.name === "TodoWrite") todoSnapshot = todosOf(part.arguments) ?? todoSnapshot;
        }
      messages.push(message);
    } else if (message.role === "tool") {
      const name = names.get(message.callId);
      const reminder = step(name);
      batch ??= reminder;
      messages.push(message);
      if (name === "EnterPlanMode")
        messages.push({
          role: "user",
          content: [
            { type: "text", text: planReminder.trimEnd() },
            { type: "text", text: todoReminder(todoSnapshot, true) },
          ],
        });
    } else if (message.role === "user") {
      sinceTodo++;
      if (firstUser) {
        firstUser = false;
        message.content = [{ type: "text", text: `${userContextReminder(ctx)}\n` }, ...message.content];
        messages.push(message);
        if (ctx.skills.length > 0)
          messages.push({ role: "developer", content: [{ type: "text", text: skillsText(ctx) }] });
      } else messages.push(message);
    } else messages.push(message);
  }
  flush();
  markCache(messages);
  return {
    system: options.system,
    messages,
    tools: toolSpecs(options.tools),
    knobs: { maxTokens: ZCODE_MAX_TOKENS, extra: { messages: { tool_choice: { type: "auto" } } } },
  };
}

/**
 * The one message breakpoint: the newest prompt's last text, or a lone trailing result; the
 * reminders that follow them (developer messages) are not marked.
 */
function markCache(messages: Message[]): void {
  const end = messages.findLastIndex((message) => message.role !== "developer");
  const last = messages[end];
  if (!last) return;
  if (last.role === "tool") {
    if (messages[end - 1]?.role !== "tool") last.cache = true;
    return;
  }
  if (last.role !== "user") return;
  const text = last.content.findLast(
    (part) => part.type === "text" && !part.text.startsWith("<system-reminder>"),
  );
  if (text) text.cache = true;
}

function skillsText(ctx: HarnessContext): string {
  const lines = ctx.skills.map((s) => `- ${s.name}: ${s.description} (file: ${s.path})`);
  return `These skills can be run with the Skill tool:\n\n${lines.join("\n")}`;
}

/** The reminder with the list as ZCode numbers it (`1. [status] content`), when there is one. */
function todoReminder(todos: ZCodeTodo[] | undefined, tagged: boolean): string {
  const body =
    todos && (todos.length > 0 || tagged)
      ? `${TODO_REMINDER}\n\nThis is the todo list as it stands:\n\n[${todos.map((t, i) => `${i + 1}. [${t.status}] ${t.content}`).join("\n")}]`
      : TODO_REMINDER;
  return tagged ? `<system-reminder>\n${body}\n</system-reminder>` : body;
}

function todosOf(json: string): ZCodeTodo[] | undefined {
  try {
    const todos = (JSON.parse(json) as { todos?: ZCodeTodo[] }).todos;
    return Array.isArray(todos) ? todos : undefined;
  } catch {
    return undefined;
  }
}

/** The files of the Read, Write and Edit calls in the history that succeeded. */
function filesTouched(history: HistoryEvent[], cwd: string): string[] {
  const pending = new Map<string, string>();
  const files: string[] = [];
  for (const event of history) {
    if (event.type === "tool_call" && FILE_TOOLS.has(event.name)) {
      const file = filePathOf(event.arguments);
      if (file) pending.set(event.callId, path.resolve(cwd, file));
    } else if (event.type === "tool_result" && event.status === "completed") {
      const file = pending.get(event.callId);
      if (file) files.push(file);
    }
  }
  return files;
}

const FILE_TOOLS = new Set(["Read", "Write", "Edit"]);

function filePathOf(json: string): string | undefined {
  try {
    const value = (JSON.parse(json) as { file_path?: unknown }).file_path;
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The list the model last wrote, for TodoWrite's `oldTodos` and TodoRead. */
function latestTodos(history: HistoryEvent[]): ZCodeTodo[] {
  for (let i = history.length - 1; i >= 0; i--) {
    const event = history[i]!;
    if (event.type === "tool_call" && event.name === "TodoWrite") {
      const todos = todosOf(event.arguments);
      if (todos) return todos;
    }
  }
  return [];
}
