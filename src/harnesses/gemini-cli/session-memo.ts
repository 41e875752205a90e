import type { Tool } from "../../tools/types.js";

/**
 * Text a harness fixes once per session (its startup context), carried on the session's tool
 * objects. `render` only receives the tools built by `tools(ctx)`, so this keeps the first
 * message byte-identical across requests without module-level state. Shared with qwen-code.
 */
const MEMO = Symbol("harness session memo");

type Memo = Record<string, string>;

/** Tags every tool with the same memo object; returns the tools. */
export function withSessionMemo(tools: Tool[], memo: Memo): Tool[] {
  for (const tool of tools) Object.defineProperty(tool, MEMO, { value: memo, enumerable: false });
  return tools;
}

/** The memoized value for `key`, computed with `make` when the tools carry no memo for it. */
export function sessionMemo(tools: Tool[], key: string, make: () => string): string {
  const memo = tools.map((tool) => (tool as unknown as Record<symbol, Memo | undefined>)[MEMO]).find(Boolean);
  if (!memo) return make();
  memo[key] ??= make();
  return memo[key];
}
