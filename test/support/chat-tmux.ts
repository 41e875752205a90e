import { BIN } from "./spawn-agent.js";
import type { tmuxServer } from "./tmux-session.js";

/** Starts the chat in a fresh 120x40 tmux window; the shell prints the exit code when it ends. */
export function chatStarter(options: {
  server: ReturnType<typeof tmuxServer>;
  home: string;
  cwd: string;
  modelUrl: () => string;
}) {
  return (name: string, args: string[], env: Record<string, string> = {}) => {
    const vars = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: options.home,
      TERM: "screen",
      INTERPRETER_HOME: options.home,
      OPENAI_BASE_URL: options.modelUrl(),
      OPENAI_API_KEY: "sk-test",
      ...env,
    };
    const argv = [
      "env",
      "-i",
      ...Object.entries(vars).map(([k, v]) => `${k}=${v}`),
      process.execPath,
      BIN,
      "-m",
      "mock-model",
      ...args,
    ];
    return options.server.start(name, argv, options.cwd);
  };
}

/**
 * The chat waits for a prompt: the composer (an empty line between two rules) sits above the
 * status line, and no turn is running (no spinner).
 */
export function atPrompt(screen: string): boolean {
  const lines = screen.trimEnd().split("\n");
  return (
    / · /.test(lines.at(-1) ?? "") &&
    /^─+$/.test(lines.at(-2) ?? "") &&
    (lines.at(-3) ?? "x").trim() === "" &&
    /^─+$/.test(lines.at(-4) ?? "") &&
    !screen.includes("Esc to interrupt")
  );
}

/** The status line (the screen's last line). */
export function statusLine(screen: string): string {
  return screen.trimEnd().split("\n").at(-1) ?? "";
}

/** SGR codes that set a colour (foreground, background, 256 or true colour). */
export function colourCodes(screen: string): string[] {
  return [...screen.matchAll(new RegExp(`${"\x1b"}\\[([0-9;]*)m`, "g"))]
    .map((m) => m[1] as string)
    .filter((params) => params.split(";").some((p) => /^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$/.test(p)));
}
