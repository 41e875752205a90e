import { Container, Editor, matchesKey, ProcessTerminal, type SlashCommand, TUI } from "@mariozechner/pi-tui";
import { ChatCompletion } from "./chat-completion.js";
import { createCodeHighlighter } from "./code-highlight.js";
import { ImageAttachments } from "./image-attach.js";
import { openPromptHistory } from "./prompt-history.js";
import { StatusLine } from "./status-line.js";
import type { Style } from "./style.js";
import { TranscriptPager } from "./transcript-pager.js";
import { TranscriptView } from "./transcript-view.js";
import { TuiInput } from "./tui-input.js";
import { editorTheme, markdownTheme } from "./tui-theme.js";

export interface ChatScreen {
  input: TuiInput;
  view: TranscriptView;
  /** Images attached in the composer (pasted or `@`-completed paths). */
  images: ImageAttachments;
  /** The workspace's files may have changed: `@` completion lists them again. */
  filesChanged(): void;
  /** Leaves the transcript on the screen, without the composer and status line, and gives the terminal back. */
  stop(): Promise<void>;
}

/**
 * The chat on a terminal, built of pi-tui components: the transcript, a spinner while a turn
 * runs, the composer (or a list in its place) and the status line, drawn by pi-tui's
 * differential renderer into the normal screen (so the scrollback keeps the session).
 * Loaded only when the chat starts on a terminal: pi-tui reads the terminal when its modules
 * are evaluated, which must not happen while the start-up snapshot is built.
 */
export function openScreen(options: {
  style: Style;
  cwd: string;
  home: string;
  commands(): SlashCommand[];
}): ChatScreen {
  const { style } = options;
  const tui = new TUI(new ProcessTerminal());
  const transcript = new Container();
  const activity = new Container();
  const bottom = new Container();
  const status = new StatusLine(style);
  const editor = new Editor(tui, editorTheme(style), { paddingX: 1 });
  const images = new ImageAttachments(options.cwd);
  const completion = new ChatCompletion(options.cwd, options.commands, (file) => images.attach(file));
  editor.setAutocompleteProvider(completion);
  bottom.addChild(editor);
  for (const part of [transcript, activity, bottom, status]) tui.addChild(part);

  const highlighter = createCodeHighlighter(() => {
    transcript.invalidate();
    tui.requestRender();
  });
  const view = new TranscriptView({
    tui,
    transcript,
    activity,
    status,
    style,
    markdown: markdownTheme(style, highlighter),
  });
  view.cwd = options.cwd;
  const showTranscript = () => {
    const expanded = view.fold.expanded;
    const pager = new TranscriptPager({
      lines: (width) => {
        view.fold.expanded = true;
        const lines = transcript.render(width);
        view.fold.expanded = expanded;
        return lines;
      },
      rows: () => tui.terminal.rows,
      style,
      close: () => {
        handle.hide();
        closeModal();
        tui.requestRender();
      },
    });
    const closeModal = input.modal();
    const handle = tui.showOverlay(pager, { width: "100%", maxHeight: "100%", anchor: "top-left" });
  };
  const input: TuiInput = new TuiInput({
    tui,
    editor,
    bottom,
    style,
    images,
    history: openPromptHistory({ home: options.home, cwd: options.cwd }),
    globalKey(data) {
      if (matchesKey(data, "ctrl+o")) {
        view.fold.expanded = !view.fold.expanded;
        tui.requestRender();
        return true;
      }
      if (matchesKey(data, "ctrl+t")) {
        showTranscript();
        return true;
      }
      return false;
    },
    // pi-tui draws on a timer and offers no public way to draw at once; its `doRender` is that.
    drawNow: () => (tui as unknown as { doRender(): void }).doRender(),
  });
  tui.setFocus(editor);
  tui.start();
  return {
    input,
    view,
    images,
    filesChanged: () => completion.refresh(),
    async stop() {
      input.close();
      bottom.clear();
      activity.clear();
      tui.removeChild(status);
      tui.requestRender();
      // pi-tui draws at most every 16 ms, on a timer: let the last frame out before stopping.
      await new Promise((resolve) => setTimeout(resolve, 50));
      tui.stop();
    },
  };
}
