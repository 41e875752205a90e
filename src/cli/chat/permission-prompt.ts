import type { PermissionChoice, PermissionOption, RequestPermissionRequest } from "../../acp/local-client.js";
import type { ChatView } from "./chat-view.js";
import { clip, type Style } from "./style.js";
import type { TerminalInput } from "./terminal-input.js";

/** The single key for each kind of option the agent may offer. */
const KEY_OF_KIND: Record<PermissionOption["kind"], string> = {
  allow_once: "y",
  allow_always: "a",
  reject_once: "n",
  reject_always: "N",
};

export interface PermissionKey {
  key: string;
  option: PermissionOption;
}

/**
 * The offered options with their keys, in the agent's order. A choice among several options of
 * one kind (the model's question, a plan's approaches) numbers them 1 to 9 instead.
 */
export function permissionKeys(options: PermissionOption[]): PermissionKey[] {
  const kinds = options.map((option) => option.kind);
  if (new Set(kinds).size < kinds.length)
    return options.slice(0, 9).map((option, i) => ({ key: String(i + 1), option }));
  const seen = new Set<string>();
  const keys: PermissionKey[] = [];
  for (const option of options) {
    const key = KEY_OF_KIND[option.kind];
    if (!key || seen.has(key)) continue;
    seen.add(key);
    keys.push({ key, option });
  }
  return keys;
}

const SHORT: Record<PermissionOption["kind"], string> = {
  allow_once: "yes",
  allow_always: "always",
  reject_once: "no",
  reject_always: "never",
};

/**
 * `[y] yes  [a] always  [n] no  [N] never` on one line, then what "always" would remember (the
 * agent's own wording of the rule) dimmed below it.
 */
export function permissionHint(keys: PermissionKey[], style: Style, width: number): string[] {
  const numbered = keys.some(({ key }) => /^[0-9]$/.test(key));
  const parts = keys.map(
    ({ key, option }) =>
      `${style.bold(style.yellow(`[${key}]`))} ${numbered ? option.name : SHORT[option.kind]}`,
  );
  const always = keys.find((k) => k.option.kind === "allow_always")?.option.name;
  const scope = always ? [style.dim(clip(`  always = ${always}`, width - 1))] : [];
  return [`  ${parts.join("  ")}`, ...scope];
}

/**
 * Asks the user about one tool call: shows what it does (its diff for edits), waits for a single
 * key, and answers with the option it stands for. Ctrl-C or Esc answers "cancelled" and cancels
 * the turn through `cancelTurn`.
 */
export async function askPermission(options: {
  request: RequestPermissionRequest;
  signal: AbortSignal;
  input: TerminalInput;
  renderer: ChatView;
  style: Style;
  width: number;
  cancelTurn(): void;
}): Promise<PermissionChoice> {
  const { request, renderer, style } = options;
  const keys = permissionKeys(request.options);
  if (keys.length === 0) return "cancelled";
  const { toolCall } = request;
  renderer.permissionAsked(toolCall.toolCallId, toolCall.title ?? "Run a tool", toolCall.content ?? []);
  renderer.lines(permissionHint(keys, style, options.width));
  const answer = await options.input.readKey(
    keys.map((k) => k.key),
    options.signal,
  );
  if (answer.type !== "key") {
    if (answer.type === "interrupt") options.cancelTurn();
    else renderer.info("  (question withdrawn)");
    return "cancelled";
  }
  const chosen = keys.find((k) => k.key === answer.key) as PermissionKey;
  const allowed = chosen.option.kind.startsWith("allow");
  renderer.lines([`  ${allowed ? style.green("→") : style.red("→")} ${chosen.option.name}`]);
  return { optionId: chosen.option.optionId };
}
