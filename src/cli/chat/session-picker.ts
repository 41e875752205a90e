import type { LocalClient, SessionSummary } from "../../acp/local-client.js";
import type { TerminalInput } from "./key-input.js";
import type { Renderer } from "./renderer.js";
import { clip, type Style } from "./style.js";

const SHOWN = 9;

/** `--resume` without an id: the newest sessions of this folder, picked by number. */
export async function pickSession(options: {
  client: LocalClient;
  cwd: string;
  input: TerminalInput;
  renderer: Renderer;
  style: Style;
  now?: Date;
}): Promise<SessionSummary | undefined> {
  const { renderer, style } = options;
  const sessions = (await options.client.listSessions(options.cwd)).slice(0, SHOWN);
  if (sessions.length === 0) return undefined;
  renderer.lines([
    style.bold(`Sessions in ${options.cwd}:`),
    ...sessions.map(
      (s, i) =>
        `  ${style.bold(`[${i + 1}]`)} ${clip(s.title || "(untitled)", 60)} ${style.dim(`${age(s.updatedAt, options.now ?? new Date())} · ${s.sessionId.slice(0, 8)}`)}`,
    ),
    style.dim("Press a number (Esc to start a new session)."),
  ]);
  const keys = sessions.map((_, i) => String(i + 1));
  const answer = await options.input.readKey(keys, new AbortController().signal);
  if (answer.type !== "key") return undefined;
  return sessions[Number(answer.key) - 1];
}

/** "5 min ago", "3 h ago", "2 d ago". */
export function age(updatedAt: string | null | undefined, now: Date): string {
  if (!updatedAt) return "";
  const minutes = Math.max(0, Math.round((now.getTime() - Date.parse(updatedAt)) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h ago`;
  return `${Math.round(minutes / 1440)} d ago`;
}
