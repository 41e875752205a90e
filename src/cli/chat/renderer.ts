import type { SessionUpdate, StopReason, ToolCallContent } from "../../acp/local-client.js";
import { toRunEvents } from "../../acp/run-events.js";
import { type ChatView, noticeLine, permissionLines, SaidTail, stopNote } from "./chat-view.js";
import { planChecklist } from "./plan-checklist.js";
import type { Style } from "./style.js";
import { mergeToolUpdate, type ToolState, toolBody, toolHeader } from "./tool-view.js";

export interface RendererOptions {
  write(text: string): void;
  style: Style;
  columns(): number;
}

/**
 * The chat off a terminal (a pipe, a file, `| tee`): the agent's `session/update`s as a plain
 * line-oriented transcript. The answer is written as the model wrote it (Markdown markers
 * included, so scripts can parse it), reasoning as it streams, one line per tool call, diffs,
 * folded output, plans. It owns the cursor's column, so whatever it prints starts on a fresh line.
 */
export class Renderer implements ChatView {
  private readonly style: Style;
  private readonly tools = new Map<string, ToolState>();
  /** What the current, unfinished line holds. */
  private open: "text" | "thought" | undefined;
  private readonly said = new SaidTail();
  /** History being replayed by `session/load`: shown compactly. */
  replaying = false;
  /** The session's folder: paths inside it are shown relative. */
  cwd: string | undefined;

  constructor(private readonly options: RendererOptions) {
    this.style = options.style;
  }

  turnStarted(): void {
    this.said.reset();
  }

  configure(): void {}

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
        if (this.replaying && update.content.type === "text") {
          this.lines(["", this.style.bold(this.style.cyan(`› ${update.content.text.trim()}`))]);
        }
        break;
      case "agent_message_chunk": {
        if (update.content.type !== "text") break;
        // A warning or error of the agent's own is a line of its own, never part of the answer.
        const [event] = toRunEvents(update);
        if (event?.type === "notice") this.notice(event.severity, event.text);
        else this.stream("text", update.content.text);
        break;
      }
      case "agent_thought_chunk":
        if (update.content.type === "text" && !this.replaying) this.stream("thought", update.content.text);
        break;
      case "tool_call":
        this.tools.set(update.toolCallId, {
          id: update.toolCallId,
          title: update.title,
          status: update.status ?? "pending",
          content: update.content ?? [],
          diffShown: false,
        });
        if (update.status === "completed" || update.status === "failed") this.finish(update.toolCallId);
        break;
      case "tool_call_update":
        this.toolUpdate(update);
        break;
      case "plan":
        if (!this.replaying) this.lines(planChecklist(update.entries, this.view()));
        break;
      default:
        break;
    }
  }

  /** Before a permission question: the call's diff (so the user sees what they approve). */
  permissionAsked(toolCallId: string, title: string, content: ToolCallContent[]): void {
    const asked = permissionLines(title, content, this.view());
    this.lines(asked.lines);
    const tool = this.tools.get(toolCallId);
    if (tool && asked.diffShown) tool.diffShown = true;
  }

  turnEnded(stopReason: StopReason): void {
    const note = stopNote(this.style, stopReason);
    this.lines(note ? [note, ""] : [""]);
  }

  failed(message: string): void {
    this.lines([this.said.told(message) ? "" : this.style.red(`✗ ${message}`), ""]);
  }

  private notice(severity: "warning" | "error", text: string): void {
    this.said.add(text);
    this.lines([noticeLine(this.style, severity, text)]);
  }

  /** A line of the chat's own (hints, errors of local commands). */
  info(text: string): void {
    this.lines([this.style.dim(text)]);
  }

  /** Whole lines, starting on a fresh line. */
  lines(lines: string[]): void {
    this.endLine();
    if (lines.length > 0) this.options.write(`${lines.join("\n")}\n`);
  }

  settle(): void {
    this.endLine();
  }

  /** Lines written to a pipe or file stay: the replayed session follows them. */
  clear(): void {
    this.endLine();
  }

  private stream(kind: "text" | "thought", text: string): void {
    if (!text) return;
    if (this.open && this.open !== kind) this.endLine();
    if (kind === "text") this.said.add(text);
    this.options.write(kind === "thought" ? this.style.dim(this.style.italic(text)) : text);
    this.open = text.endsWith("\n") ? undefined : kind;
  }

  private toolUpdate(update: Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>): void {
    const tool = this.tools.get(update.toolCallId);
    if (!tool) return;
    mergeToolUpdate(tool, update);
    if (tool.status === "completed" || tool.status === "failed") this.finish(tool.id);
  }

  private finish(id: string): void {
    const tool = this.tools.get(id);
    if (!tool) return;
    const view = this.view();
    this.lines([toolHeader(tool, view), ...(this.replaying ? [] : toolBody(tool, view))]);
    this.tools.delete(id);
  }

  private endLine(): void {
    if (this.open) this.options.write("\n");
    this.open = undefined;
  }

  private view() {
    return { style: this.style, width: Math.max(20, this.options.columns()), cwd: this.cwd };
  }
}
