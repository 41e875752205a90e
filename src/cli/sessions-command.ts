import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { resolveHome } from "../config/home.js";
import { openStore } from "../store/open-store.js";
import type { SessionRecord, Store } from "../store/types.js";
import { parseCommandArgs } from "./args.js";
import { resolveSessionId } from "./sessions/resolve-session-id.js";
import { sessionListText } from "./sessions/session-list-text.js";
import { transcriptMarkdown } from "./sessions/transcript-markdown.js";
import { transcriptText } from "./sessions/transcript-text.js";

const SESSIONS_OPTIONS = {
  json: { type: "boolean" },
  cwd: { type: "string" },
  limit: { type: "string" },
  format: { type: "string" },
  output: { type: "string", short: "o" },
  reasoning: { type: "boolean" },
  archived: { type: "boolean" },
} as const;

const SUBCOMMANDS = ["list", "show", "export", "rm"] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];
type Args = ReturnType<typeof parseCommandArgs<typeof SESSIONS_OPTIONS>>;

/**
 * `interpreter sessions [list|show|export|rm]`: reads the session store directly (no model, no
 * config needed beyond where the home is), so it works while the endpoint or config is broken.
 */
export async function sessionsCommand(argv: string[]): Promise<number> {
  const args = parseCommandArgs(argv, SESSIONS_OPTIONS);
  const [first, ...rest] = args.positionals;
  const sub: Subcommand = first === undefined ? "list" : (first as Subcommand);
  if (!SUBCOMMANDS.includes(sub)) {
    return fail(`unknown subcommand '${first}' (expected ${SUBCOMMANDS.join(", ")}, or a flag)`, 2);
  }
  let store: Store;
  try {
    const home = resolveHome(process.env, process.env.HOME ?? os.homedir());
    store = openStore({ path: path.join(home, "openinterpreter.db") });
  } catch (error) {
    return fail(messageOf(error), 1);
  }
  try {
    if (sub === "list") return list(store, args);
    const id = rest[0];
    if (id === undefined) return fail(`missing session id (usage: interpreter sessions ${sub} <id>)`, 2);
    const found = resolveSessionId(store, id);
    if ("error" in found) return fail(found.error, 1);
    if (sub === "show") return show(store, found.session, args);
    if (sub === "export") return exportSession(store, found.session, args);
    store.deleteSession(found.session.id);
    process.stdout.write(
      `Deleted session ${found.session.id}${found.session.title ? ` (${found.session.title})` : ""}.\n`,
    );
    return 0;
  } catch (error) {
    return fail(messageOf(error), 1);
  } finally {
    store.close();
  }
}

function list(store: Store, args: Args): number {
  const limit = args.values.limit === undefined ? 20 : Number(args.values.limit);
  if (!Number.isSafeInteger(limit) || limit < 1) {
    return fail(`--limit expects a positive whole number, got '${args.values.limit}'`, 2);
  }
  const cwd = args.values.cwd === undefined ? undefined : path.resolve(args.values.cwd);
  const page = store.listSessions({
    limit,
    ...(cwd === undefined ? {} : { cwd }),
    ...(args.values.archived ? { archived: "only" as const } : {}),
  });
  if (args.values.json) {
    process.stdout.write(`${JSON.stringify(page.sessions.map(summary), null, 2)}\n`);
    return 0;
  }
  process.stdout.write(sessionListText(page.sessions, new Date()));
  if (page.nextCursor) process.stdout.write(`(more sessions: use --limit ${limit * 2} to see more)\n`);
  return 0;
}

function show(store: Store, session: SessionRecord, args: Args): number {
  const events = store.events(session.id);
  if (args.values.json) {
    process.stdout.write(`${JSON.stringify({ session: summary(session), events }, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(transcriptText({ session, events, reasoning: args.values.reasoning === true }));
  return 0;
}

function exportSession(store: Store, session: SessionRecord, args: Args): number {
  const output = args.values.output;
  const format = args.values.format ?? (output && /\.(md|markdown)$/i.test(output) ? "md" : "json");
  if (format !== "json" && format !== "md") return fail(`--format expects json or md, got '${format}'`, 2);
  const events = store.events(session.id);
  const text =
    format === "md"
      ? transcriptMarkdown({ session, events })
      : `${JSON.stringify({ session: summary(session), events }, null, 2)}\n`;
  if (output === undefined || output === "-") {
    process.stdout.write(text);
    return 0;
  }
  writeFileSync(output, text);
  process.stderr.write(`Wrote ${events.length} events of session ${session.id} to ${output} (${format}).\n`);
  return 0;
}

/** What scripts see of a session: its record without the editor's MCP server list (may hold secrets). */
function summary(session: SessionRecord) {
  const { mcpServers: _mcp, ...rest } = session;
  return rest;
}

function fail(message: string, code: number): number {
  process.stderr.write(`interpreter sessions: ${message}\n`);
  return code;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
