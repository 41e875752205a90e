import { randomUUID } from "node:crypto";
import path from "node:path";
import type { ModelPrice } from "../config/types.js";
import type { Harness } from "../harnesses/types.js";
import type { HistoryEvent, HistoryEventOf, ResultPart } from "../store/events.js";
import { spillWithPreview } from "../tools/fs/spill-output.js";
import { boundImage } from "../tools/image/bound-image.js";
import type { Tool, ToolResult } from "../tools/types.js";
import { compactedView } from "./compaction.js";
import type { LedgerInfo } from "./usage-totals.js";

/** Kimi Code's cap on one tool result, the default for tools a harness did not build (MCP). */
export const FOREIGN_MAX_CHARS = 50_000;
/**
 * The safety net over every harness's own tools: above each original's caps (Claude Code's
 * Read allows ~100 000 characters), so it only catches what a cap let through.
 */
export const SAFETY_MAX_CHARS = 200_000;

/**
 * What the session does to a tool result before it enters the history: an identical repeated
 * read becomes the harness's "unchanged" stub (where its original does that), and an
 * oversized output is spilled to `<scratchDir>/tool-results/` with a head/tail preview, and an
 * image too big to keep in a history row is scaled down. The editor's display is left as the
 * tool made it. Never throws.
 */
export function economizer(options: {
  harness: Harness;
  /** The harness's own tools; anything else (MCP) gets the foreign cap. */
  own: Tool[];
  scratchDir: string;
  history(): HistoryEvent[];
}): (call: HistoryEventOf<"tool_call">, result: ToolResult) => Promise<ToolResult> {
  const own = new Set(options.own.map((tool) => tool.name));
  const policy = options.harness.output ?? {};
  return async (call, raw) => {
    const result = await boundStoredImages(raw);
    const stub = policy.unchangedRead;
    // An image is shown again in full: the stub stands for text the model can scroll back to.
    if (stub && call.capability === "read" && !result.isError && !result.parts) {
      if (lastSameRead(options.history(), call, stub) === result.output) return { ...result, output: stub };
    }
    const maxChars = own.has(call.name) ? SAFETY_MAX_CHARS : (policy.foreignMaxChars ?? FOREIGN_MAX_CHARS);
    if (result.output.length <= maxChars) return result;
    const output = await spillWithPreview({
      text: result.output,
      dir: path.join(options.scratchDir, "tool-results"),
      name: `${call.name.replace(/[^\w.-]/g, "_")}-${randomUUID()}.txt`,
      maxChars,
    });
    return { ...result, output };
  };
}

/**
 * Past this many bytes an image is scaled down before it is stored (bound-image.ts). Each
 * original's own image tool sends far less; only a file sent at its original detail gets here.
 */
export const MAX_STORED_IMAGE_BYTES = 10 * 1024 * 1024;

async function boundStoredImages(result: ToolResult): Promise<ToolResult> {
  const big = (part: ResultPart) =>
    part.type === "image" && (part.data.length * 3) / 4 > MAX_STORED_IMAGE_BYTES;
  if (!result.parts?.some(big)) return result;
  const parts = await Promise.all(
    result.parts.map((part) => (big(part) && part.type === "image" ? boundImage(part) : part)),
  );
  return { ...result, parts };
}

/**
 * The output the model last saw in full for the same tool and arguments, if that result is
 * still in the context the harness renders (not compacted away); stubs point at it.
 */
export function lastSameRead(
  history: HistoryEvent[],
  call: HistoryEventOf<"tool_call">,
  stub: string,
): string | undefined {
  const key = callKey(call);
  const same = new Set<string>();
  let last: string | undefined;
  for (const event of compactedView(history)) {
    if (event.type === "tool_call" && event.callId !== call.callId && callKey(event) === key) {
      same.add(event.callId);
    } else if (event.type === "tool_result" && same.has(event.callId) && event.status === "completed") {
      if (event.output !== stub) last = event.output;
    }
  }
  return last;
}

function callKey(call: HistoryEventOf<"tool_call">): string {
  return `${call.harness}\n${call.name}\n${canonicalJson(call.arguments)}`;
}

/** Arguments with sorted keys, so `{"a":1,"b":2}` and `{ "b": 2, "a": 1 }` are the same read. */
function canonicalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : value,
    );
  } catch {
    return text;
  }
}

/** What a session knows when it starts a turn (see `SessionDeps.economy`). */
export interface EconomyOptions {
  harness: Harness;
  /** The harness's own tools (without MCP tools). */
  own: Tool[];
  model: string;
  history(): HistoryEvent[];
}

/** A turn's ledger fields (model, provider, harness, prices) and its output economizer. */
export function turnEconomy(
  options: EconomyOptions & { scratchDir: string; provider: string; prices: Record<string, ModelPrice> },
): { ledger: LedgerInfo; economize: ReturnType<typeof economizer> } {
  const { model, prices } = options;
  return {
    ledger: {
      model,
      provider: options.provider,
      harness: options.harness.id,
      ...(Object.hasOwn(prices, model) ? { price: prices[model] } : {}),
    },
    economize: economizer(options),
  };
}
