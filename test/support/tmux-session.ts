import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);
const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Why tmux cannot drive a terminal here, or undefined when it can. */
export function tmuxMissing(): string | undefined {
  const result = spawnSync("tmux", ["-V"], { encoding: "utf8" });
  return result.status === 0 ? undefined : "needs tmux (apt install tmux, brew install tmux)";
}

export interface TmuxWindow {
  keys(...keys: string[]): Promise<unknown>;
  /** Types text literally (no key-name lookup), then Enter. */
  type(text: string): Promise<void>;
  /** The whole scrollback, wrapped lines joined, trailing blanks trimmed (`escapes`: with SGR codes). */
  screen(escapes?: boolean): Promise<string>;
  /** Pastes text as a terminal does (bracketed when the program asked for it). */
  paste(text: string): Promise<unknown>;
  /** Resizes the window (the program gets SIGWINCH). */
  resize(columns: number, rows?: number): Promise<unknown>;
  /** Polls the screen until `pattern` shows up; fails with the screen as it was. */
  until(pattern: RegExp | string | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
}

/**
 * A private tmux server (`-L socket`) for one test file: `start` runs an argv in a fresh
 * 120x40 window, the shell printing `EXITED <code>` when it ends.
 */
export function tmuxServer(socket: string) {
  const tmux = (...args: string[]) => run("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  return {
    async start(name: string, argv: string[], cwd: string): Promise<TmuxWindow> {
      const command = `${argv.map(quote).join(" ")}; echo EXITED $?; sleep 600`;
      await tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", "-c", cwd, command);
      const screen = async (escapes = false) => {
        const args = ["capture-pane", "-p", "-J", "-S", "-500", ...(escapes ? ["-e"] : []), "-t", name];
        const { stdout } = await tmux(...args);
        return stdout
          .split("\n")
          .map((line) => line.trimEnd())
          .join("\n");
      };
      return {
        keys: (...keys) => tmux("send-keys", "-t", name, ...keys),
        paste: async (text) => {
          await tmux("set-buffer", "-b", name, "--", text);
          return tmux("paste-buffer", "-p", "-d", "-b", name, "-t", name);
        },
        resize: (columns, rows = 40) =>
          tmux("resize-window", "-t", name, "-x", String(columns), "-y", String(rows)),
        type: async (text) => {
          await tmux("send-keys", "-t", name, "-l", text);
          await tmux("send-keys", "-t", name, "Enter");
        },
        screen,
        async until(pattern, timeoutMs = 20_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const last = await screen();
            const found =
              typeof pattern === "string"
                ? last.includes(pattern)
                : pattern instanceof RegExp
                  ? pattern.test(last)
                  : pattern(last);
            if (found) return last;
            // The screen's end is where the chat is: that is what a failure shows.
            const tail = last.trimEnd().split("\n").slice(-45).join("\n");
            if (Date.now() > deadline) throw new Error(`screen never showed ${pattern}; it ended:\n${tail}`);
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        },
      };
    },
    kill: () => tmux("kill-server").catch(() => {}),
  };
}
