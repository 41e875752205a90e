import {
  type Container,
  decodeKittyPrintable,
  type Editor,
  isKeyRelease,
  matchesKey,
  type TUI,
} from "@mariozechner/pi-tui";
import type { ImageAttachments } from "./image-attach.js";
import { Picker } from "./picker.js";
import type { PromptHistory } from "./prompt-history.js";
import type { Style } from "./style.js";
import type { KeyResult, LineResult, PickOptions, PickResult, TerminalInput } from "./terminal-input.js";

/** What a handler does with a key: take it, or let the focused component (the composer) have it. */
type KeyHandler = (data: string) => "take" | "pass";

/** Key names a question may wait for, as pi-tui names them. */
const NAMED: [string, string][] = [
  ["up", "up"],
  ["down", "down"],
  ["pageUp", "pageup"],
  ["pageDown", "pagedown"],
  ["enter", "return"],
];

/**
 * The chat's input on pi-tui: prompts come from the composer (pi-tui's `Editor`: multi-line,
 * history, paste, completion), questions take single keys, lists show in the composer's place.
 * Only the newest handler sees keys, so a permission question inside a running turn wins.
 */
export class TuiInput implements TerminalInput {
  readonly interactive = true;
  private readonly handlers: KeyHandler[] = [];
  private readonly removeListener: () => void;
  /** SIGINT from outside (`kill -INT`; in raw mode Ctrl-C is a key): handled as Ctrl-C. */
  private readonly onSignal = () => {
    this.handlers.at(-1)?.("\x03");
  };

  constructor(
    private readonly options: {
      tui: TUI;
      editor: Editor;
      /** Holds the composer, or a list in its place. */
      bottom: Container;
      style: Style;
      history: PromptHistory;
      images: ImageAttachments;
      /** Keys that work everywhere (Ctrl-O, Ctrl-T); true when one was taken. */
      globalKey(data: string): boolean;
      /** Draws the screen now, not at pi-tui's next frame. */
      drawNow(): void;
    },
  ) {
    for (const entry of options.history.entries) options.editor.addToHistory(entry);
    options.editor.disableSubmit = true;
    process.on("SIGINT", this.onSignal);
    this.removeListener = options.tui.addInputListener((data) => {
      if (isKeyRelease(data)) return undefined;
      const handler = this.handlers.at(-1);
      if (handler?.(data) === "take") return { consume: true };
      if (!handler && options.globalKey(data)) return { consume: true };
      return undefined;
    });
  }

  readLine(): Promise<LineResult> {
    const { editor, history } = this.options;
    return new Promise((resolve) => {
      const finish = (result: LineResult) => {
        pop();
        editor.onSubmit = undefined;
        editor.disableSubmit = true;
        resolve(result);
      };
      editor.onSubmit = (text) => {
        if (text.trim()) {
          editor.addToHistory(text);
          // The file keeps an image's path: a marker means nothing to a later session.
          history.add(this.options.images.plain(text));
        }
        finish({ type: "line", text });
      };
      editor.disableSubmit = false;
      // The agent starts background work right after a session opens (loading the model's SDK):
      // the prompt is on the screen before that takes the event loop, not after.
      this.options.drawNow();
      const pop = this.push((data) => {
        if (matchesKey(data, "ctrl+c")) {
          const hadText = editor.getText().length > 0;
          editor.setText("");
          finish({ type: "interrupt", hadText });
          return "take";
        }
        if (matchesKey(data, "ctrl+d") && editor.getText() === "") {
          finish({ type: "eof" });
          return "take";
        }
        if (matchesKey(data, "ctrl+r")) {
          void this.searchHistory();
          return "take";
        }
        return this.pastedImage(data) || this.options.globalKey(data) ? "take" : "pass";
      });
    });
  }

  readKey(keys: string[], signal: AbortSignal): Promise<KeyResult> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve({ type: "aborted" });
      const finish = (result: KeyResult) => {
        signal.removeEventListener("abort", onAbort);
        pop();
        resolve(result);
      };
      const onAbort = () => finish({ type: "aborted" });
      signal.addEventListener("abort", onAbort, { once: true });
      const pop = this.push((data) => {
        if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
          finish({ type: "interrupt" });
          return "take";
        }
        const named = NAMED.find(([id, name]) => keys.includes(name) && matchesKey(data, id as never));
        const printable = decodeKittyPrintable(data) ?? data;
        if (named) finish({ type: "key", key: named[1] });
        else if (keys.includes(printable)) finish({ type: "key", key: printable });
        return "take";
      });
    });
  }

  pick(options: PickOptions): Promise<PickResult> {
    const { tui, bottom, editor, style } = this.options;
    return new Promise((resolve) => {
      const picker = new Picker({ ...options, style }, (result) => {
        pop();
        bottom.clear();
        bottom.addChild(editor);
        tui.setFocus(editor);
        tui.requestRender();
        resolve(result);
      });
      // The picker handles every key itself (it has the focus).
      const pop = this.push(() => "pass");
      bottom.clear();
      bottom.addChild(picker);
      tui.setFocus(picker);
      tui.requestRender();
    });
  }

  watchInterrupts(onInterrupt: (soft: boolean) => void): () => void {
    return this.push((data) => {
      if (matchesKey(data, "ctrl+c")) onInterrupt(false);
      // Esc first closes a completion list opened while typing ahead.
      else if (matchesKey(data, "escape") && this.options.editor.isShowingAutocomplete()) return "pass";
      else if (matchesKey(data, "escape")) onInterrupt(true);
      else return this.pastedImage(data) || this.options.globalKey(data) ? "take" : "pass";
      return "take";
    });
  }

  /** A component with the focus over the chat (the transcript page): it gets every key until closed. */
  modal(): () => void {
    return this.push(() => "pass");
  }

  above(write: () => void): void {
    write();
  }

  close(): void {
    process.off("SIGINT", this.onSignal);
    this.handlers.length = 0;
    this.removeListener();
  }

  /** Ctrl-R: this project's earlier prompts, newest first, filtered as you type; Enter puts one in the composer. */
  private async searchHistory(): Promise<void> {
    const entries = [...this.options.history.entries].reverse();
    if (entries.length === 0) return;
    const items = entries.map((text, i) => ({ value: String(i), label: text.replace(/\s+/g, " ") }));
    const answer = await this.pick({ title: "Earlier prompts (this project)", items });
    if (answer.type === "picked") this.options.editor.setText(entries[answer.index] as string);
  }

  /**
   * A bracketed paste (pi-tui hands it over whole) of an image file's path, as a terminal pastes
   * a dragged file: its marker goes into the composer instead of the path.
   */
  private pastedImage(data: string): boolean {
    const [start, end] = ["\x1b[200~", "\x1b[201~"];
    const whole = data.startsWith(start) && data.endsWith(end);
    const marker = whole ? this.options.images.attach(data.slice(start.length, -end.length)) : undefined;
    if (marker === undefined) return false;
    const { editor } = this.options;
    const { line, col } = editor.getCursor();
    const before = col > 0 ? (editor.getLines()[line] ?? "").charAt(col - 1) : "";
    editor.insertTextAtCursor(`${before && before !== " " ? " " : ""}${marker} `);
    this.options.tui.requestRender();
    return true;
  }

  private push(handler: KeyHandler): () => void {
    this.handlers.push(handler);
    return () => {
      const index = this.handlers.lastIndexOf(handler);
      if (index >= 0) this.handlers.splice(index, 1);
    };
  }
}
