import type { LocalClient, SessionSummary } from "../../acp/local-client.js";
import { sessionPick } from "./slash-pickers.js";
import type { TerminalInput } from "./terminal-input.js";

/** `--resume` without an id: this folder's sessions, newest first, in a list (Esc: a new session). */
export async function pickSession(options: {
  client: LocalClient;
  cwd: string;
  input: TerminalInput;
  now?: Date;
}): Promise<SessionSummary | undefined> {
  const sessions = await options.client.listSessions(options.cwd);
  if (sessions.length === 0) return undefined;
  const answer = await options.input.pick(sessionPick(sessions, options.now ?? new Date()));
  return answer.type === "picked" ? sessions[answer.index] : undefined;
}

/** "5 min ago", "3 h ago", "2 d ago". */
export function age(updatedAt: string | null | undefined, now: Date): string {
  if (!updatedAt) return "";
  const minutes = Math.max(0, Math.round((now.getTime() - Date.parse(updatedAt)) / 60_000));
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)} h ago`;
  return `${Math.round(minutes / 1440)} d ago`;
}
