import { stripVTControlCharacters } from "node:util";
import type { SessionUpdate, StopReason, ToolCallContent } from "../../acp/local-client.js";
import { toRunEvents } from "../../acp/run-events.js";
import { lastLine } from "./fold-output.js";
import { MarkdownStream } from "./markdown-stream.js";
import { planChecklist } from "./plan-checklist.js";
import { createSpinner } from "./spinner.js";
import type { Style } from "./style.js";
import { diffLines, oneLine, type ToolState, texts, toolBody, toolHeader } from "./tool-view.js";

export interface RendererOptions {
  write(text: string): void;
  style: Style;
  /** Spinner and in-place redraws: only on a terminal. */
  animate: boolean;
  columns(): number;
}

/**
 * Turns the agent's `session/update`s into a line-oriented transcript: streamed Markdown, dimmed
 * reasoning, one line per tool call, diffs, folded output, plans. It owns the cursor's column,
 * so whatever it prints starts on a fresh line when it has to.
 */
export class Renderer {
  private readonly style: Style;
  private readonly spinner;
  private readonly tools = new Map<string, ToolState>();
  /** The answer's Markdown, styled a line at a time (passed through when colours are off). */
  private readonly answer: MarkdownStream;
  /** What the current, unfinished terminal line holds. */
  private open: "text" | "thought" | undefined;
  private running: string | undefined;
  private active = false;
  /** The end of this turn's answer text: an error the agent already told is not repeated. */
  private said = "";
  /** History being replayed by `session/load`: shown compactly. */
  replaying = false;
  /** The session's folder: paths inside it are shown relative. */
  cwd: string | undefined;

  constructor(private readonly options: RendererOptions) {
    this.style = options.style;
    this.spinner = createSpinner({
      write: options.write,
      animate: options.animate,
      style: options.style,
      columns: options.columns,
    });
    this.answer = new MarkdownStream({ style: options.style, width: options.columns });
  }

  turnStarted(): void {
    this.active = true;
    this.said = "";
    this.refresh();
  }

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
    this.refresh();
  }

  /** Before a permission question: the call's diff (so the user sees what they approve). */
  permissionAsked(toolCallId: string, title: string, content: ToolCallContent[]): void {
    const tool = this.tools.get(toolCallId);
    const diffs = diffLines(content, this.view());
    this.lines([`${this.style.yellow("?")} ${oneLine(title)}`, ...diffs]);
    if (tool && diffs.length > 0) tool.diffShown = true;
  }

  turnEnded(stopReason: StopReason): void {
    this.active = false;
    this.running = undefined;
    const notes: Partial<Record<StopReason, string>> = {
      cancelled: this.style.yellow("⏹ Cancelled."),
      max_tokens: this.style.yellow("The answer was cut off: the model reached its token limit."),
      max_turn_requests: this.style.yellow("Stopped: the turn reached its step limit."),
      refusal: this.style.yellow("The model refused to continue."),
    };
    const note = notes[stopReason];
    this.lines(note ? [note, ""] : [""]);
  }

  failed(message: string): void {
    this.active = false;
    this.running = undefined;
    this.lines([this.said.includes(message) ? "" : this.style.red(`✗ ${message}`), ""]);
  }

  private notice(severity: "warning" | "error", text: string): void {
    this.said = (this.said + text).slice(-4000);
    const mark = severity === "error" ? this.style.red("✗") : this.style.yellow("!");
    this.lines([`${mark} ${text}`]);
  }

  /** A line of the chat's own (hints, errors of local commands). */
  info(text: string): void {
    this.lines([this.style.dim(text)]);
  }

  /** Whole lines, starting on a fresh line. */
  lines(lines: string[]): void {
    this.spinner.hide();
    this.endLine();
    if (lines.length > 0) this.options.write(`${lines.join("\n")}\n`);
  }

  /** Ends any half-written line and stops the spinner (before a prompt takes the line). */
  settle(): void {
    this.spinner.hide();
    this.endLine();
  }

  private stream(kind: "text" | "thought", text: string): void {
    if (!text) return;
    this.spinner.hide();
    if ((this.open && this.open !== kind) || (kind === "thought" && this.answer.pending)) this.endLine();
    if (kind === "text") this.said = (this.said + text).slice(-4000);
    // Reasoning is not Markdown-rendered: it stays dimmed plain text.
    const out = kind === "thought" ? this.style.dim(this.style.italic(text)) : this.answer.push(text);
    if (out) this.options.write(out);
    if (out) this.open = out.endsWith("\n") ? undefined : kind;
  }

  private toolUpdate(update: Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>): void {
    const tool = this.tools.get(update.toolCallId);
    if (!tool) return;
    if (update.title) tool.title = update.title;
    if (update.content) tool.content = update.content;
    if (update.status) tool.status = update.status;
    if (tool.status === "in_progress" && this.running !== tool.id) {
      this.running = tool.id;
      this.settle();
    }
    if (tool.status === "completed" || tool.status === "failed") this.finish(tool.id);
  }

  private finish(id: string): void {
    const tool = this.tools.get(id);
    if (!tool) return;
    if (this.running === id) this.running = undefined;
    const view = this.view();
    this.lines([toolHeader(tool, view), ...(this.replaying ? [] : toolBody(tool, view))]);
    this.tools.delete(id);
  }

  /** While a turn runs, the spinner says what is happening (only at the start of a line). */
  private refresh(): void {
    if (!this.active || this.open) return;
    const tool = this.running ? this.tools.get(this.running) : undefined;
    const pending = this.answer.pending;
    if (pending) this.spinner.show(preview(pending, this.options.columns() - 6));
    else if (tool) {
      const output = texts(tool.content).at(-1);
      this.spinner.show(oneLine(tool.title), output ? lastLine(output) : "");
    } else this.spinner.show("Working… (Ctrl-C to cancel)");
  }

  /** Ends the current line; an answer line still held for styling is written first. */
  private endLine(): void {
    const held = this.answer.pending;
    const rest = this.answer.end();
    if (held || this.open) this.options.write(`${rest}\n`);
    this.open = undefined;
  }

  private view() {
    return { style: this.style, width: Math.max(20, this.options.columns()), cwd: this.cwd };
  }
}

/**
 * An answer line still streaming, shown unstyled in the spinner's place (redrawn in place, so
 * it never wraps): its tail, so the newest words are in sight.
 */
function preview(line: string, room: number): string {
  const chars = [...stripVTControlCharacters(line)].map((c) => (c < " " ? " " : c));
  return chars.length <= room ? chars.join("") : `…${chars.slice(-Math.max(1, room - 1)).join("")}`;
}
