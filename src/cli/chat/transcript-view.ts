import { type Container, Loader, Markdown, type MarkdownTheme, type TUI } from "@mariozechner/pi-tui";
import type {
  ContentBlock,
  SessionConfigOption,
  SessionUpdate,
  StopReason,
  ToolCallContent,
} from "../../acp/local-client.js";
import { toRunEvents } from "../../acp/run-events.js";
import { type ChatView, noticeLine, permissionLines, SaidTail, stopNote } from "./chat-view.js";
import { planChecklist } from "./plan-checklist.js";
import type { StatusLine } from "./status-line.js";
import type { Style } from "./style.js";
import { mergeToolUpdate, oneLine } from "./tool-view.js";
import { type FoldState, LinesBlock, ToolBlock } from "./transcript-blocks.js";

export interface TranscriptViewOptions {
  tui: TUI;
  /** Where the session's blocks go, one after another. */
  transcript: Container;
  /** Where the spinner goes while a turn runs (between the transcript and the composer). */
  activity: Container;
  status: StatusLine;
  style: Style;
  markdown: MarkdownTheme;
}

/**
 * The chat on a terminal: the agent's `session/update`s as pi-tui components. The answer is one
 * Markdown component re-rendered as it streams (tables, highlighted code), reasoning is dimmed,
 * each tool call is a live block (`•` running, then `✓`/`✗` with its diff and folded output),
 * and a spinner says how long the turn has run and how many tokens came back.
 */
export class TranscriptView implements ChatView {
  cwd: string | undefined;
  replaying = false;
  readonly fold: FoldState = { expanded: false };
  private readonly style: Style;
  private readonly tools = new Map<string, ToolBlock>();
  /** The block that streamed text goes to, until something else is shown. */
  private streaming: { kind: "text" | "thought"; text: string; block: Markdown | LinesBlock } | undefined;
  private readonly said = new SaidTail();
  /** The user message being replayed and its block (its next chunks join it). */
  private replayed: { text: string; block: LinesBlock } | undefined;
  private turn:
    | { started: number; chars: number; loader: Loader; timer: NodeJS.Timeout; label: string }
    | undefined;

  constructor(private readonly options: TranscriptViewOptions) {
    this.style = options.style;
  }

  turnStarted(): void {
    this.said.reset();
    this.endTurn();
    const { tui, style } = this.options;
    const loader = new Loader(
      tui,
      (s) => style.cyan(s),
      (s) => style.dim(s),
      "Working",
    );
    const timer = setInterval(() => this.tick(), 1000);
    this.turn = { started: Date.now(), chars: 0, loader, timer, label: "Working" };
    this.options.activity.addChild(loader);
    this.tick();
  }

  configure(config: SessionConfigOption[]): void {
    this.options.status.configure(config);
    this.options.tui.requestRender();
  }

  update(update: SessionUpdate): void {
    switch (update.sessionUpdate) {
      case "user_message_chunk":
        if (this.replaying) this.replayedChunk(update.content);
        break;
      case "agent_message_chunk": {
        if (update.content.type !== "text") break;
        const [event] = toRunEvents(update);
        if (event?.type === "notice") {
          if (event.topic === "sandbox") this.options.status.noSandbox();
          this.notice(event.severity, event.text);
        } else this.stream("text", update.content.text);
        break;
      }
      case "agent_thought_chunk":
        if (update.content.type === "text" && !this.replaying) this.stream("thought", update.content.text);
        break;
      case "tool_call":
        this.toolCall(update.toolCallId, update.title, update.status ?? "pending", update.content ?? []);
        break;
      case "tool_call_update": {
        const block = this.tools.get(update.toolCallId);
        if (!block) break;
        mergeToolUpdate(block.tool, update);
        if (this.turn)
          this.turn.label = block.tool.status === "in_progress" ? oneLine(block.tool.title) : "Working";
        break;
      }
      case "plan":
        if (!this.replaying) this.lines(planChecklist(update.entries, this.view()));
        break;
      case "usage_update":
        this.options.status.setUsage({
          used: update.used,
          size: update.size,
          ...(update.cost ? { cost: update.cost } : {}),
        });
        break;
      case "config_option_update":
        this.options.status.configure(update.configOptions);
        break;
      default:
        break;
    }
    this.options.tui.requestRender();
  }

  /** The user's prompt as it was sent (the composer empties on Enter). */
  prompt(text: string): void {
    this.lines(this.promptLines(text));
  }

  /**
   * A replayed user message arrives a block at a time (text, an image, text): one prompt, each
   * image an `[image]` in its place.
   */
  private replayedChunk(content: ContentBlock): void {
    const piece = content.type === "text" ? content.text : content.type === "image" ? "[image]" : undefined;
    if (piece === undefined) return;
    const last = this.options.transcript.children.at(-1);
    if (this.replayed && last === this.replayed.block) {
      const joint = /\s$/.test(this.replayed.text) || /^\s/.test(piece) ? "" : " ";
      this.replayed.text += joint + piece;
      this.replayed.block.set(this.promptLines(this.replayed.text));
      return;
    }
    this.prompt(piece);
    const block = this.options.transcript.children.at(-1);
    if (block instanceof LinesBlock) this.replayed = { text: piece, block };
  }

  private promptLines(text: string): string[] {
    const [first, ...rest] = text.trim().split("\n");
    const cyan = (line: string) => this.style.bold(this.style.cyan(line));
    return ["", cyan(`› ${first}`), ...rest.map((line) => cyan(`  ${line}`))];
  }

  permissionAsked(toolCallId: string, title: string, content: ToolCallContent[]): void {
    const asked = permissionLines(title, content, this.view());
    this.lines(asked.lines);
    const block = this.tools.get(toolCallId);
    if (block && asked.diffShown) block.tool.diffShown = true;
  }

  turnEnded(stopReason: StopReason): void {
    this.endTurn();
    const note = stopNote(this.style, stopReason);
    if (note) this.lines([note]);
  }

  failed(message: string): void {
    this.endTurn();
    if (!this.said.told(message)) this.lines([this.style.red(`✗ ${message}`)]);
  }

  /** During a turn on the spinner's line (a line in the transcript would cut the streaming answer in two). */
  info(text: string): void {
    if (this.turn) {
      this.turn.label = text;
      this.tick();
    } else this.lines([this.style.dim(text)]);
  }

  lines(lines: string[]): void {
    this.streaming = undefined;
    this.options.transcript.addChild(new LinesBlock(lines));
    this.options.tui.requestRender();
  }

  settle(): void {
    this.streaming = undefined;
  }

  /**
   * Empties the transcript and redraws the screen from its top, scrollback included. With
   * nothing shown yet (`--resume` at start) the terminal's earlier lines are left alone.
   */
  clear(): void {
    if (this.options.transcript.children.length === 0) return;
    this.endTurn();
    this.streaming = undefined;
    this.said.reset();
    this.tools.clear();
    this.options.transcript.clear();
    this.options.tui.requestRender(true);
  }

  private notice(severity: "warning" | "error", text: string): void {
    this.said.add(text);
    this.lines([noticeLine(this.style, severity, text)]);
  }

  private stream(kind: "text" | "thought", text: string): void {
    if (!text) return;
    if (this.turn) this.turn.chars += text.length;
    if (kind === "text") this.said.add(text);
    if (this.streaming?.kind !== kind) {
      const block = kind === "text" ? new Markdown("", 0, 0, this.options.markdown) : new LinesBlock([]);
      this.streaming = { kind, text: "", block };
      this.options.transcript.addChild(block);
    }
    const streaming = this.streaming;
    streaming.text += text;
    if (streaming.block instanceof Markdown) streaming.block.setText(streaming.text);
    else
      streaming.block.set(streaming.text.split("\n").map((line) => this.style.dim(this.style.italic(line))));
  }

  private toolCall(
    id: string,
    title: string,
    status: ToolBlock["tool"]["status"],
    content: ToolCallContent[],
  ) {
    this.streaming = undefined;
    const block = new ToolBlock(
      { id, title, status, content, diffShown: false },
      { style: this.style, cwd: this.cwd, fold: this.fold, compact: this.replaying },
    );
    this.tools.set(id, block);
    this.options.transcript.addChild(block);
  }

  /** The spinner's line: what runs, for how long, and about how many tokens came back. */
  private tick(): void {
    const turn = this.turn;
    if (!turn) return;
    const seconds = Math.floor((Date.now() - turn.started) / 1000);
    const tokens = Math.round(turn.chars / 4);
    turn.loader.setMessage(`${turn.label} · ${seconds}s · ↓ ${tokens} tokens · Esc to interrupt`);
  }

  private endTurn(): void {
    const turn = this.turn;
    if (!turn) return;
    clearInterval(turn.timer);
    turn.loader.stop();
    this.options.activity.clear();
    this.turn = undefined;
    this.streaming = undefined;
    this.options.tui.requestRender();
  }

  private view() {
    return { style: this.style, width: Math.max(20, this.options.tui.terminal.columns), cwd: this.cwd };
  }
}
