import { readdirSync } from "node:fs";
import { longDate } from "../shared/gemini-core/long-date.js";
import type { HarnessContext } from "../types.js";

/** Qwen Code shows at most this many top-level entries in its startup context. */
export const STARTUP_LISTING_LIMIT = 20;

/** The assistant turn that answers the startup context (OI `harness/qwen_code.rs`). */
export const STARTUP_ACK = "Got it. Thanks for the context!";

/**
 * Qwen Code's synthetic first user message as openinterpreter sends it
 * (`codex-rs/core/src/harness/qwen_code.rs::build_startup_context_message`): date, OS, working
 * directory and its first 20 visible entries. The opening sentence is kept as Qwen Code sends it:
 * it tells the model this turn is set-up context, not a request.
 */
export function startupContext(ctx: HarnessContext): string {
  return `This is the Qwen Code. We are setting up the context for our chat.
Today's date is ${longDate(ctx.currentDate)} (formatted according to the user's locale).
My operating system is: ${ctx.platform}
I'm currently working in the directory: ${ctx.cwd}
Here is the folder structure of the current working directories:

Showing up to ${STARTUP_LISTING_LIMIT} items:

${folderListing(ctx.cwd)}`;
}

/** `cwd/` then its non-hidden entries, sorted, folders marked with `/`, tree connectors. */
export function folderListing(cwd: string): string {
  const lines = [`${cwd}/`];
  let names: string[] = [];
  try {
    names = readdirSync(cwd, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith("."))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  } catch {
    // An unreadable folder shows just its own name, as upstream does.
  }
  const shown = names.slice(0, STARTUP_LISTING_LIMIT);
  for (const [i, name] of shown.entries()) lines.push(`${i === shown.length - 1 ? "└───" : "├───"}${name}`);
  return lines.join("\n");
}
