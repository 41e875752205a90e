import type { SessionRecord } from "../../store/types.js";

/** How long ago, as a person says it: `just now`, `5m`, `3h`, `2d`, `6w`, then the date. */
export function age(iso: string, now: Date): string {
  const seconds = Math.max(0, (now.getTime() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  if (seconds < 7 * 86_400) return `${Math.floor(seconds / 86_400)}d ago`;
  if (seconds < 60 * 86_400) return `${Math.floor(seconds / (7 * 86_400))}w ago`;
  return iso.slice(0, 10);
}

/** The shortest id prefix (at least 8 characters) a reader can type back. */
export const SHORT_ID = 8;

/**
 * `interpreter sessions`: one line per session, newest first, in aligned columns
 * (id, age, harness, model, title, cwd). Titles are cut so a line stays readable.
 */
export function sessionListText(sessions: readonly SessionRecord[], now: Date): string {
  if (sessions.length === 0) return "No sessions yet.\n";
  const rows = sessions.map((s) => [
    s.id.slice(0, SHORT_ID),
    age(s.updatedAt, now),
    s.harness ?? "auto",
    s.model ?? "default",
    cut(s.title ?? "(untitled)", 48),
    s.cwd,
  ]);
  const header = ["ID", "UPDATED", "HARNESS", "MODEL", "TITLE", "CWD"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] as number)))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
