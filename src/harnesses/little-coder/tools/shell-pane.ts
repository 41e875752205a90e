import { randomBytes } from "node:crypto";
import { TmuxTerminal } from "../../../tools/terminal/tmux-terminal.js";
import type { ToolContext } from "../../../tools/types.js";
import type { ShellOutcome } from "./shell-output.js";

/** What the original types once into a new session so no pager waits for a key. */
const SETUP = "export PAGER=cat GIT_PAGER=cat LESS=FRX MANPAGER=cat SYSTEMD_PAGER=cat";
/** Seconds between looks at the pane while a command runs. */
const POLL_S = 0.1;

export type PaneRun = { ok: true; outcome: ShellOutcome } | { ok: false; error: string };

/**
 * ShellSession's persistent shell: the session's tmux pane (the terminal Terminus 2 drives, so
 * the shell is confined like every command), driven the way little-coder's Terminal-Bench
 * backend drives its tmux session (`benchmarks/tb_adapter`, `_TmuxShellProxy`). Each command is
 * wrapped so that, when it ends, it prints a one-off marker with its exit code and the shell's
 * directory; the result is the pane's text between the previous command's end and that marker.
 * A command still running at its timeout is left running, as the original leaves it.
 */
export class ShellPane {
  readonly #terminal: TmuxTerminal;
  /** Where the previous command's output ended in the pane's text. */
  #cursor = 0;
  #ready = false;

  constructor(terminal = new TmuxTerminal({ owner: "little-coder" })) {
    this.#terminal = terminal;
  }

  async run(ctx: ToolContext, command: string, timeoutS: number): Promise<PaneRun> {
    const ready = await this.#setup(ctx);
    if (!ready.ok) return ready;
    const sentinel = `__LC_END_${randomBytes(4).toString("hex")}__`;
    const script = `{ ${command}\n}\n__rc=$?\nprintf '\\n%s:%d:' '${sentinel}' "$__rc"\npwd\n`;
    // One typed line whatever the command holds (heredocs, quotes, several lines); the
    // sentinel at its end marks where the typed line stops, as the original's staged file name does.
    const line = `eval "$(printf %s '${Buffer.from(script).toString("base64")}' | base64 -d)" #${sentinel}`;
    const done = new RegExp(`${sentinel}:(-?\\d+):(\\S[^\\n]*)\\n`);
    const deadline = Date.now() + timeoutS * 1000;
    const server = this.#terminal.server;
    let sent = await this.#terminal.send(ctx, [
      { keystrokes: line, duration: 0 },
      { keystrokes: "Enter", duration: POLL_S },
    ]);
    while (sent.ok && !done.test(sent.capture.buffer) && Date.now() < deadline) {
      const wait = Math.max(0, Math.min(POLL_S, (deadline - Date.now()) / 1000));
      sent = await this.#terminal.send(ctx, [{ keystrokes: "", duration: wait }]);
    }
    if (!sent.ok) return this.#lost(sent.error);
    // The terminal starts again when the session's confinement changes (another mode, an
    // approved escalation): that pane has not had the setup yet, so the next command types it.
    if (this.#terminal.server !== server) this.#ready = false;
    return { ok: true, outcome: this.#read(sent.capture.buffer, sentinel) };
  }

  /** Interrupts whatever runs, leaves an editor, clears the screen and types the setup again. */
  async reset(ctx: ToolContext): Promise<PaneRun | { ok: true }> {
    const sent = await this.#terminal.send(ctx, [
      { keystrokes: "C-c", duration: 0.2 },
      { keystrokes: ":q!", duration: 0 },
      { keystrokes: "Enter", duration: 0.2 },
      { keystrokes: "C-c", duration: 0.2 },
      { keystrokes: "clear", duration: 0 },
      { keystrokes: "Enter", duration: 0.3 },
    ]);
    if (!sent.ok) return this.#lost(sent.error);
    this.#ready = false;
    return this.#setup(ctx);
  }

  async #setup(ctx: ToolContext): Promise<{ ok: true } | { ok: false; error: string }> {
    if (this.#ready) return { ok: true };
    const sent = await this.#terminal.send(ctx, [
      { keystrokes: SETUP, duration: 0 },
      { keystrokes: "Enter", duration: 0.3 },
    ]);
    if (!sent.ok) return this.#lost(sent.error);
    this.#cursor = sent.capture.buffer.trimEnd().length;
    this.#ready = true;
    return { ok: true };
  }

  /** A failed or cancelled batch stopped the terminal: the next command starts a new one. */
  #lost(error: string): { ok: false; error: string } {
    this.#ready = false;
    this.#cursor = 0;
    return { ok: false, error };
  }

  /** The command's output, exit code and directory out of the pane's text (the original's reading). */
  #read(pane: string, sentinel: string): ShellOutcome {
    const start = this.#cursor <= pane.length ? this.#cursor : 0;
    const marker = pane.lastIndexOf(`${sentinel}:`);
    if (marker < 0) {
      return {
        output: afterTypedLine(pane.slice(start), sentinel).trim(),
        exitCode: -1,
        cwd: "?",
        timedOut: true,
      };
    }
    const [code = "", rest = ""] = pane.slice(marker + sentinel.length + 1).split(/:(.*)/s);
    const cwd =
      rest
        .replace(/^[\r\n]+/, "")
        .split("\n")[0]
        ?.trim() || "?";
    const cwdEnd = pane.indexOf("\n", marker);
    this.#cursor = cwdEnd >= 0 ? cwdEnd + 1 : pane.length;
    const bodyStart = start <= marker ? start : 0;
    const lineBefore = pane.lastIndexOf("\n", marker);
    const body = pane.slice(bodyStart, lineBefore > bodyStart ? lineBefore : marker);
    return {
      output: afterTypedLine(body, sentinel).replace(/^[\n\r ]+/, ""),
      exitCode: /^-?\d+$/.test(code) ? Number(code) : -1,
      cwd,
      timedOut: false,
    };
  }
}

/** Drops the pane's echo of the typed command: everything through the line the sentinel ends. */
function afterTypedLine(text: string, sentinel: string): string {
  const at = text.indexOf(sentinel);
  if (at < 0) return text;
  const eol = text.indexOf("\n", at);
  return eol >= 0 ? text.slice(eol + 1) : "";
}
