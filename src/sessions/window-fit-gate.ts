import { findHarness } from "../harnesses/harness-list.js";
import type { Harness, HarnessContext, HarnessEntry, HarnessSession } from "../harnesses/types.js";
import type { SessionWindow } from "../providers/served-window.js";
import type { Tool } from "../tools/types.js";
import type { SessionEndpoint } from "./session-deps.js";
import { TurnError } from "./types.js";
import { estimateRequestTokens } from "./usage-totals.js";
import { fitMessage, fitStops, judgeFit, type LeanHarness, type WindowFit } from "./window-fit.js";

/** The harness offered when the active one's own request is too big for the window. */
export const LEAN_HARNESS = "pi";

export interface FitCheck {
  harness: Harness;
  /** The harness as opened for this session and model. */
  opened: HarnessSession;
  /** Every tool the request carries (the harness's own and MCP tools). */
  tools: Tool[];
  /** Its `model` is the session's model. */
  ctx: HarnessContext;
}

/** The estimated size of a harness's first request: its system prompt, context and tools, no history. */
export function bareRequestTokens(opened: HarnessSession, tools: Tool[], ctx: HarnessContext): number {
  return estimateRequestTokens(opened.render({ history: [], tools, ctx }));
}

export type WindowFitGate = ReturnType<typeof windowFitGate>;

/**
 * One session's check, before each turn's first request, that the harness's own request fits
 * the model's window with a working margin. A misfit is told once per harness, model and
 * window as a warning notice, and the turn goes on; a request that alone is over a window the
 * server or config stated ends every turn with the same text instead (see `fitStops`).
 */
export function windowFitGate(options: {
  harnesses: HarnessEntry[];
  endpoint: Pick<SessionEndpoint, "configFile" | "window">;
  notice(text: string): void;
}) {
  const { endpoint } = options;
  const told = new Set<string>();
  return {
    /**
     * Resolves to the model's window, the one the turn's compaction and usage use. Throws
     * `TurnError` (`window_too_small`) when the turn must not be sent.
     */
    async check({ harness, opened, tools, ctx }: FitCheck): Promise<SessionWindow> {
      const window = await endpoint.window(ctx.model);
      const fit = judgeFit(bareRequestTokens(opened, tools, ctx), window.tokens);
      if (fit.fits) return window;
      const stop = fitStops(fit, window);
      const key = `${harness.id}\0${ctx.model}\0${window.tokens}`;
      if (!stop && told.has(key)) return window;
      const lean = await leanHarness({ harnesses: options.harnesses, current: harness.id, ctx, fit });
      const { problem, remedy } = fitMessage({
        fit,
        window,
        harness: harness.id,
        model: ctx.model,
        configFile: endpoint.configFile,
        ...(lean ? { lean } : {}),
      });
      if (stop) throw new TurnError(`${problem} ${remedy}`, "window_too_small");
      told.add(key);
      options.notice(`${problem} ${remedy}`);
      return window;
    },
  };
}

/** The lean harness's own fit in the same window; undefined when it is the active one or not listed. */
export async function leanHarness(o: {
  harnesses: HarnessEntry[];
  current: string;
  ctx: HarnessContext;
  fit: WindowFit;
}): Promise<LeanHarness | undefined> {
  const entry = findHarness(o.harnesses, LEAN_HARNESS);
  if (!entry || entry.id === o.current) return undefined;
  const lean = (await entry.load()).open(o.ctx);
  return { id: entry.id, fit: judgeFit(bareRequestTokens(lean, lean.tools, o.ctx), o.fit.window) };
}
