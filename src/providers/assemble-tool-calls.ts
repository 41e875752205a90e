import type { AssembledToolCall } from "./types.js";

/** One `delta.tool_calls[]` entry, already read leniently (every field may be missing). */
export interface ToolCallDelta {
  index?: number;
  id?: string;
  name?: string;
  arguments?: string;
}

export interface ToolCallAssembler {
  add(delta: ToolCallDelta): void;
  /** Calls in arrival order; fragments that never got a name or arguments are dropped as noise. */
  calls(): AssembledToolCall[];
}

/**
 * Assembles streamed tool-call fragments. Servers disagree on `index` (missing, or reused by a
 * second call) and on `id` (first fragment only, every fragment, or never), so the id wins:
 * same id → same call; a new id → a new call even when its index collides; no id → the call
 * last seen at that index; no id and no index → the current call.
 */
export function createToolCallAssembler(options: { newId: () => string }): ToolCallAssembler {
  const calls: AssembledToolCall[] = [];
  const byId = new Map<string, AssembledToolCall>();
  const byIndex = new Map<number, AssembledToolCall>();
  let current: AssembledToolCall | undefined;

  const open = (id: string | undefined): AssembledToolCall => {
    const call = { id: id ?? options.newId(), name: "", arguments: "" };
    calls.push(call);
    byId.set(call.id, call);
    return call;
  };

  // A call that began without an index adopts the first index its continuation fragments carry.
  const unindexedCurrent = () => (current && ![...byIndex.values()].includes(current) ? current : undefined);

  return {
    add(delta) {
      let call: AssembledToolCall | undefined;
      if (delta.id) call = byId.get(delta.id) ?? open(delta.id);
      else if (delta.index !== undefined)
        call = byIndex.get(delta.index) ?? unindexedCurrent() ?? open(undefined);
      else call = current ?? open(undefined);
      if (delta.index !== undefined) byIndex.set(delta.index, call);
      current = call;
      // Names come whole in the first fragment; some servers repeat them, a few send them late.
      if (delta.name && !call.name) call.name = delta.name;
      if (delta.arguments) call.arguments += delta.arguments;
    },
    calls: () => calls.filter((call) => call.name || call.arguments).map((call) => ({ ...call })),
  };
}
