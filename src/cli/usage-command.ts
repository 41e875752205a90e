import { formatCost } from "../sessions/usage-totals.js";
import type { UsageGroup, UsageGrouping } from "../store/usage-ledger.js";
import { parseCommandArgs } from "./args.js";
import { openRuntime } from "./runtime.js";

const GROUPINGS: readonly UsageGrouping[] = ["model", "harness", "session"];
const UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export const USAGE_HELP = `Usage: interpreter usage [--since <date|duration>] [--by model|harness|session] [--json]

Tokens, cached share, cost and requests from the ledger of every session.
  --since <when>   a date (2026-11-01, or an ISO time) or a duration back from now (30m, 12h, 7d, 2w)
  --by <what>      group by model (default), harness or session
  --json           print JSON instead of a table
`;

/** Test seams: the clock and where the report goes (default: the real clock and stdout/stderr). */
export interface UsageIo {
  now?: () => Date;
  out?: (text: string) => void;
  err?: (text: string) => void;
}

/** `interpreter usage`: the token and cost ledger across sessions. Resolves with the exit code. */
export async function usageCommand(argv: string[], io: UsageIo = {}): Promise<number> {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const err = io.err ?? ((text: string) => process.stderr.write(text));
  const { values, positionals, overrides } = parseCommandArgs(argv, {
    since: { type: "string" },
    by: { type: "string" },
    json: { type: "boolean" },
  });
  if ((values as { help?: boolean }).help) {
    out(USAGE_HELP);
    return 0;
  }
  const by = (values.by ?? "model") as UsageGrouping;
  const problem = !GROUPINGS.includes(by)
    ? `--by must be one of ${GROUPINGS.join(", ")}, got '${values.by}'`
    : positionals.length > 0
      ? `unexpected argument '${positionals[0]}'`
      : undefined;
  const since =
    values.since === undefined ? undefined : parseSince(values.since, (io.now ?? (() => new Date()))());
  if (problem || since === null) {
    err(
      `interpreter usage: ${problem ?? `--since: expected a date or a duration like 7d, got '${values.since}'`}\n\n${USAGE_HELP}`,
    );
    return 2;
  }
  const runtime = openRuntime(overrides);
  if (!runtime) return 1;
  try {
    const groups = runtime.store.usage({ by, ...(since ? { since } : {}) });
    out(
      values.json
        ? `${JSON.stringify({ since: since ?? null, by, groups, total: total(groups) }, null, 2)}\n`
        : table(groups, by, since),
    );
    return 0;
  } finally {
    await runtime.shutdown();
  }
}

/** `7d`, `12h`, `30m`, `2w` back from `now`, or a date/time; null when it is neither. */
export function parseSince(text: string, now: Date): string | null {
  const duration = /^(\d+(?:\.\d+)?)([mhdw])$/.exec(text.trim());
  if (duration) return new Date(now.getTime() - Number(duration[1]) * UNITS[duration[2]!]!).toISOString();
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return null;
  const date = new Date(text.trim());
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function total(groups: UsageGroup[]): Omit<UsageGroup, "key" | "title" | "first" | "last"> {
  const sum = (pick: (g: UsageGroup) => number) => groups.reduce((n, g) => n + pick(g), 0);
  const currencies = [...new Set(groups.map((g) => g.currency).filter(Boolean))];
  return {
    requests: sum((g) => g.requests),
    inputTokens: sum((g) => g.inputTokens),
    cachedInputTokens: sum((g) => g.cachedInputTokens),
    outputTokens: sum((g) => g.outputTokens),
    reasoningTokens: sum((g) => g.reasoningTokens),
    estimated: sum((g) => g.estimated),
    latencyMs: sum((g) => g.latencyMs),
    priced: sum((g) => g.priced),
    cost: sum((g) => g.cost),
    ...(currencies.length === 1 ? { currency: currencies[0] } : {}),
  };
}

function table(groups: UsageGroup[], by: UsageGrouping, since: string | undefined): string {
  const scope = since ? ` since ${since}` : "";
  if (groups.length === 0) return `No model requests recorded${scope}.\n`;
  const head = [by, "requests", "input", "cached", "output", "reasoning", "cost"];
  const row = (label: string, g: Omit<UsageGroup, "key" | "first" | "last">) => [
    label + (g.estimated > 0 ? " *" : ""),
    String(g.requests),
    String(g.inputTokens),
    `${g.cachedInputTokens} (${g.inputTokens > 0 ? Math.round((100 * g.cachedInputTokens) / g.inputTokens) : 0}%)`,
    String(g.outputTokens),
    String(g.reasoningTokens),
    g.priced === 0 ? "-" : `${formatCost(g.cost)}${g.currency ? ` ${g.currency}` : ""}`,
  ];
  const rows = [
    head,
    ...groups.map((g) => row(g.title ? `${g.key} (${g.title})` : g.key, g)),
    row("total", total(groups)),
  ];
  const widths = head.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd(),
  );
  const notes = [`Model requests${scope}, by ${by}.`, "", ...lines];
  const estimated = total(groups).estimated;
  if (estimated > 0)
    notes.push("", `* ${estimated} requests had no usage from the endpoint: tokens estimated as bytes / 4.`);
  if (groups.some((g) => g.priced < g.requests)) {
    notes.push(`Cost covers only models with prices: set [model_prices."<model>"] in config.toml.`);
  }
  return `${notes.join("\n")}\n`;
}
