/**
 * Context windows (input tokens a request may hold) of well-known models, matched by model id.
 * Ids come in many spellings (`Qwen/Qwen3-Coder-480B-A35B-Instruct`, `qwen3-coder:30b`,
 * `openrouter/moonshotai/kimi-k2-0905`), so patterns match anywhere in the id, case-insensitively,
 * and the first match wins: specific rows come before their family's catch-all.
 *
 * Values are the vendors' published windows for their own API or the model card's native length
 * (no YaRN extension). A local server may run a model with less (Ollama's default is a few
 * thousand tokens), so what the server reports comes first and `model_context_window` in
 * config.toml wins over both (`chooseWindow` in src/providers/served-window.ts).
 */
const WINDOWS: ReadonlyArray<readonly [RegExp, number]> = [
  // Qwen: 2507 releases, Qwen3-Coder and Qwen3-Max are 256k; Coder-Plus 1M; original Qwen3 32k.
  [/qwen3-coder-plus/i, 1_000_000],
  [/qwen3-coder|qwen3-max|qwen3-.*2507|qwen3\.[5-9]/i, 262_144],
  [/qwen/i, 32_768],
  // Kimi K2: the July 2025 release is 128k, later K2 releases and K2.5 are 256k.
  [/kimi-k2-0711|kimi-k2-instruct$/i, 131_072],
  [/kimi-k2|kimi-for-coding|k2\.5|k2-thinking/i, 262_144],
  [/kimi|moonshot/i, 131_072],
  // GLM: 4.5 is 128k, 4.6 onwards ~200k.
  [/glm-?4\.[6-9]|glm-?5/i, 202_752],
  [/glm-?4\.5/i, 131_072],
  // DeepSeek V3.x (deepseek-chat, deepseek-reasoner, R1): 128k.
  [/deepseek/i, 131_072],
  [/gpt-oss/i, 131_072],
  // Llama 3.1+ and 4 as commonly served: 128k; Llama 3.0: 8k.
  [/llama-?3\.[1-9]|llama-?4/i, 131_072],
  [/llama/i, 8_192],
  // Mistral: Devstral 2 and Codestral 256k; Devstral, Large/Medium/Small 3.x 128k; older 32k.
  [/devstral-2|devstral-(small|medium)-2512|codestral/i, 262_144],
  [/devstral|mistral-(large|medium|small)|magistral|ministral/i, 131_072],
  [/mistral|mixtral/i, 32_768],
  [/gemini/i, 1_048_576],
  // OpenAI: GPT-4.1 ~1M; GPT-5 family 272k input (Codex's model catalog); o-series 200k; 4o 128k.
  [/gpt-4\.1/i, 1_047_576],
  [/gpt-5/i, 272_000],
  [/\bo[134](-mini|-pro)?\b/i, 200_000],
  [/gpt-4o|gpt-4-turbo/i, 128_000],
  [/claude/i, 200_000],
];

/** For models not in the table: small enough that compaction starts before most servers refuse. */
export const UNKNOWN_MODEL_CONTEXT_WINDOW = 32_768;

/** The table's window for `model` (`configured`, when given, wins). */
export function contextWindowFor(model: string, configured?: number): number {
  if (configured !== undefined) return configured;
  for (const [pattern, window] of WINDOWS) if (pattern.test(model)) return window;
  return UNKNOWN_MODEL_CONTEXT_WINDOW;
}
