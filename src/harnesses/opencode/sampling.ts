/** Gemini ids 1.18.33 gives its tuned sampling (`ProviderTransform`'s Gemini list). */
const TUNED_GEMINI = [
  /gemini-2[.-]5(?:[.-]|$)/i,
  /gemini-3-(?:flash|pro)(?:[.-]|$)/,
  /gemini-3[.-]1(?:[.-]|$)/,
  /gemini-3[.-]5-flash(?!-lite)(?:[.-]|$)/,
];

/**
 * opencode 1.18.33's `top_p` for a model id (`ProviderTransform.topP`): 0.95 for the tuned Gemini
 * ids, MiniMax M2, Kimi K2.5 and DeepSeek V4 Flash 0731; none otherwise. (Its per-model
 * temperature goes out only for models its catalog marks as taking one, which a model id alone
 * does not tell: the captures, of models without that mark, send none, and neither do we.)
 */
export function opencodeTopP(model: string): number | undefined {
  const id = model.toLowerCase();
  if (id.includes("gemini")) return TUNED_GEMINI.some((re) => re.test(id)) ? 0.95 : undefined;
  if (["minimax-m2", "kimi-k2.5", "kimi-k2p5", "kimi-k2-5"].some((part) => id.includes(part))) return 0.95;
  if (["deepseek-v4-flash-0731", "deepseek-v4-flash:0731"].some((part) => id.includes(part))) return 0.95;
  return undefined;
}
