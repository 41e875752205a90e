import { RpcError } from "./json-rpc-lines.js";
import type { Thread } from "./threads.js";

type Params = Record<string, unknown>;

/**
 * Upstream Open Interpreter's catalog methods, `interpreter/{harness,model}/list|set`, on a
 * loaded thread: the lists are the session's own config options, so they match what an ACP
 * editor offers. `interpreter/provider/*` answers the one configured provider; switching it
 * per thread is not offered by the session layer.
 */
export function catalogMethods(deps: {
  loaded(params: Params): Thread;
  setOption(thread: Thread, id: string, value: string): Promise<void>;
}) {
  const list = (id: string) => async (params: Params) => {
    const option = deps.loaded(params).options.find((o) => o.id === id);
    if (option?.type !== "select") return { data: [], current: null };
    const choices = option.options.flatMap((o) => ("value" in o ? [o] : o.options));
    return {
      data: choices.map((c) => ({ id: c.value, name: c.name, description: c.description ?? null })),
      current: option.currentValue,
    };
  };
  const set = (id: string) => async (params: Params) => {
    const thread = deps.loaded(params);
    if (typeof params.id !== "string") throw new RpcError(-32602, "id must be a string");
    await deps.setOption(thread, id, params.id);
    return { current: params.id };
  };
  return {
    "interpreter/harness/list": list("harness"),
    "interpreter/harness/set": set("harness"),
    "interpreter/model/list": list("model"),
    "interpreter/model/set": set("model"),
  };
}
