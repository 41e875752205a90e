import type { Tool } from "../../tools/types.js";

/**
 * Text fixed once per session, carried on the session's own tool objects: `render` only gets
 * the tools `tools(ctx)` built, so this keeps the system prompt byte-identical across requests
 * (prompt cache, and Kimi Code renders it once) without module-level state.
 */
const MEMO = Symbol("kimi-code session memo");

type Memo = Map<string, string>;

export function withSessionMemo<T extends Tool[]>(tools: T): T {
  const memo: Memo = new Map();
  for (const tool of tools) Object.defineProperty(tool, MEMO, { value: memo, enumerable: false });
  return tools;
}

/** The value remembered under `key`, made with `make` the first time (or every time for foreign tools). */
export function sessionMemo(tools: Tool[], key: string, make: () => string): string {
  const memo = tools.map((tool) => (tool as unknown as Record<symbol, Memo | undefined>)[MEMO]).find(Boolean);
  if (!memo) return make();
  const known = memo.get(key);
  if (known !== undefined) return known;
  const value = make();
  memo.set(key, value);
  return value;
}
