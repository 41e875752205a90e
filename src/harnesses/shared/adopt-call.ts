import type { Capability } from "../../store/events.js";
import type { Tool } from "../../tools/types.js";
import type { ToolCallEvent } from "./history-steps.js";

/** A call as the wire carries it: a tool name and its arguments as JSON text. */
export interface WireCall {
  name: string;
  arguments: string;
}

/**
 * What a call made under any harness asks for, read from its arguments whatever the harness
 * named them (`command`/`cmd`, `path`/`file_path`/`absolute_path`/`filePath`, ...).
 */
export interface CallIntent {
  capability: Capability;
  command?: string;
  cwd?: string;
  path?: string;
  offset?: number;
  limit?: number;
  content?: string;
  oldString?: string;
  newString?: string;
  replaceAll?: boolean;
}

/** A harness's own terms for an intent; undefined when it has no faithful counterpart. */
export type Adopt = (intent: CallIntent) => WireCall | undefined;

/**
 * The one rule for calls in the history, whichever harness made them: a call made under this
 * harness stays as it was (even one that failed: the model saw it); so does a call to a tool of
 * the same name whose schema accepts its arguments; otherwise the harness's `adopt` puts its
 * intent in this harness's terms (by default a command goes to this harness's shell tool);
 * undefined means no counterpart, and the renderer shows the call as text.
 */
export function adoptCall(
  call: ToolCallEvent,
  target: { harness: string; tools?: readonly Tool[]; adopt?: Adopt },
): WireCall | undefined {
  const own = { name: call.name, arguments: call.arguments };
  if (call.harness === target.harness) return own;
  const same = target.tools?.find((t) => t.name === call.name);
  if (same?.schema.safeParse(parseArguments(call.arguments)).success) return own;
  const adopt = target.adopt ?? (target.tools ? adoptCommand(target.tools) : undefined);
  const intent = adopt && callIntent(call);
  return intent ? adopt(intent) : undefined;
}

/**
 * The default adoption: a command becomes a call of this harness's shell tool (`command`, or
 * `cmd` where that is its name), with its directory where the tool takes a `workdir`.
 */
export function adoptCommand(tools: readonly Tool[]): Adopt {
  const shell = tools.find((t) => t.capability === "exec");
  const properties = (shell?.parameters.properties ?? {}) as Record<string, unknown>;
  const key = "command" in properties || !("cmd" in properties) ? "command" : "cmd";
  return (intent) =>
    shell && intent.capability === "exec" && intent.command !== undefined
      ? {
          name: shell.name,
          arguments: JSON.stringify({
            [key]: intent.command,
            ...(intent.cwd !== undefined && "workdir" in properties ? { workdir: intent.cwd } : {}),
          }),
        }
      : undefined;
}

/** The command of a call that runs one (any harness's shell tool), if it is one. */
export function commandOf(call: ToolCallEvent): string | undefined {
  const intent = call.capability === "exec" ? callIntent(call) : undefined;
  return intent?.command;
}

/** Reads the intent of a call from any harness; undefined when its arguments are not a JSON object. */
export function callIntent(call: ToolCallEvent): CallIntent | undefined {
  const args = parseArguments(call.arguments);
  if (args === undefined) return undefined;
  const text = (...keys: string[]) =>
    keys.map((key) => args[key]).find((value): value is string => typeof value === "string");
  const number = (...keys: string[]) =>
    keys.map((key) => args[key]).find((value): value is number => typeof value === "number");
  const raw = args.command ?? args.cmd;
  const command =
    typeof raw === "string"
      ? raw
      : Array.isArray(raw) && raw.every((part) => typeof part === "string")
        ? raw.join(" ")
        : undefined;
  const intent: CallIntent = {
    capability: call.capability,
    command,
    cwd: text("workdir", "cwd", "dir_path", "directory"),
    path: text("path", "file_path", "absolute_path", "filePath"),
    offset: number("offset", "start_line", "line_offset"),
    limit: number("limit", "n_lines"),
    content: text("content"),
    oldString: text("old_string", "oldText"),
    newString: text("new_string", "newText"),
    replaceAll: args.replace_all === true || args.allow_multiple === true,
  };
  return intent;
}

function parseArguments(json: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(json || "{}");
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
