import { MODES, type Mode } from "../config/types.js";
import type { HarnessContext } from "../harnesses/types.js";
import type { HistoryEvent, HistoryEventOf } from "../store/events.js";
import { planFile } from "../tools/ask/plan-file.js";
import type { PlanPort, UserPort } from "../tools/ask/types.js";
import type { ClientPort } from "./types.js";

/** The history event of a switch to `mode`; one into plan mode remembers the mode it left. */
export function modeChanged(mode: Mode, current: Mode): HistoryEventOf<"mode_changed"> {
  return { type: "mode_changed", mode, ...(mode === "plan" && current !== "plan" ? { from: current } : {}) };
}

/**
 * The mode approving a plan brings back: the one the last switch into plan mode left (stored in
 * the history, so it survives a restart), else the default for new sessions.
 */
export function modeBeforePlan(history: HistoryEvent[], fallback: Mode): Mode {
  const entered = history.findLast(
    (e): e is HistoryEventOf<"mode_changed"> => e.type === "mode_changed" && e.mode === "plan",
  );
  const from = entered?.from;
  if (from && from !== "plan" && (MODES as readonly string[]).includes(from)) return from as Mode;
  return fallback === "plan" ? "workspace-write" : fallback;
}

/**
 * The turn's context with the session's mode read when a request is rendered: a plan tool may
 * switch it between two requests of one turn, and the next request must say so.
 */
export function liveMode(ctx: HarnessContext, session: { readonly mode: Mode }): HarnessContext {
  return Object.defineProperty({ ...ctx }, "mode", { get: () => session.mode, enumerable: true });
}

/** The session's plan mode for plan tools, on the session's own mode switch (which tells the editor). */
export function planPort(
  session: { readonly mode: Mode; setMode(mode: Mode): void },
  history: () => HistoryEvent[],
  scratchDir: string,
): PlanPort {
  return {
    active: () => session.mode === "plan",
    file: planFile(scratchDir),
    enter: () => session.setMode("plan"),
    exit: () => {
      if (session.mode === "plan") session.setMode(modeBeforePlan(history(), "workspace-write"));
    },
  };
}

/** The person behind the editor, or none when the client runs unattended or cannot ask. */
export function userPort(client: ClientPort | undefined): UserPort | undefined {
  const how = client?.questions?.() ?? "none";
  const { elicit, choose } = client ?? {};
  if (how === "none" || !client || !choose) return undefined;
  return {
    forms: how === "forms" && elicit !== undefined,
    form: (request, signal) =>
      elicit ? elicit.call(client, request, signal) : Promise.resolve({ action: "cancel" }),
    choose: (request, signal) => choose.call(client, request, signal),
  };
}
