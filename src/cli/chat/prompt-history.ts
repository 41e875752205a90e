import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const Entry = z.object({ cwd: z.string(), text: z.string() });

/** Prompts kept per project: the composer's ↑/↓ and Ctrl-R reach those of earlier sessions. */
export interface PromptHistory {
  /** This project's prompts, oldest first. */
  readonly entries: string[];
  add(text: string): void;
}

/** Entries read back at start; older ones stay in the file but are not offered. */
const KEPT = 500;

/**
 * `$INTERPRETER_HOME/chat-history.jsonl`, one `{cwd, text}` line per prompt sent from the
 * terminal chat, appended as it is sent. A line that does not parse is skipped, not fatal.
 */
export function openPromptHistory(options: { home: string; cwd: string }): PromptHistory {
  const file = path.join(options.home, "chat-history.jsonl");
  const entries: string[] = [];
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // No history yet.
  }
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const entry = Entry.parse(JSON.parse(line));
      if (entry.cwd === options.cwd) entries.push(entry.text);
    } catch {
      // A torn or foreign line.
    }
  }
  entries.splice(0, Math.max(0, entries.length - KEPT));
  return {
    entries,
    add(prompt) {
      if (entries.at(-1) === prompt) return;
      entries.push(prompt);
      try {
        mkdirSync(options.home, { recursive: true });
        appendFileSync(file, `${JSON.stringify({ cwd: options.cwd, text: prompt })}\n`, { mode: 0o600 });
      } catch {
        // History is a convenience: a read-only home loses it, not the prompt.
      }
    },
  };
}
