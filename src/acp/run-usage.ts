/** Tokens of one turn, as the agent reports them in the prompt response. */
export interface RunUsage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** ACP's draft `PromptResponse.usage` (camelCase token counts), if the agent sent one. */
export function turnUsage(raw: unknown): RunUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const u = raw as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);
  if (typeof u.inputTokens !== "number" || typeof u.outputTokens !== "number") return undefined;
  return {
    inputTokens: n(u.inputTokens),
    cachedInputTokens: n(u.cachedReadTokens),
    outputTokens: n(u.outputTokens),
  };
}
