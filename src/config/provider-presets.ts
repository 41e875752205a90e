import type { AuthStyle, ReasoningBack, WireApi } from "./types.js";

/**
 * A service or local server every install knows by id, with the quirks its API needs as data
 * (never URL sniffing). The one list: the built-in `model_providers` and the first-run set-up's
 * hosted list are both derived from it. docs/providers.md shows every field and its source.
 */
export interface ProviderPreset {
  id: string;
  name: string;
  /** For `messages`, without `/v1`: the Anthropic SDK appends `/v1/messages`. */
  baseUrl: string;
  wire: WireApi;
  /** The environment variable that holds the key; absent for servers that need none. */
  envKey?: string;
  /** Where a user gets a key. */
  keysUrl?: string;
  /** A server on this machine: plain http on loopback, no key. */
  local?: boolean;
  /** Offered by the first-run set-up (which lists models over Chat Completions' `/models`). */
  setup?: boolean;
  reasoningBack?: ReasoningBack;
  extraBody?: Record<string, unknown>;
  authStyle?: AuthStyle;
  /** `false` for an API whose models take no image input (`supports_images`). */
  images?: false;
  /** The provider's own page the URL, key variable and quirks were taken from. */
  source: string;
}

export const DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1";

/**
 * Every preset, in the order docs/providers.md and the set-up list them. A fresh copy each
 * call, so no caller can change another's.
 */
export function providerPresets(): ProviderPreset[] {
  return [
    {
      id: "openai",
      name: "OpenAI",
      baseUrl: DEFAULT_OPENAI_BASE_URL,
      // Chat, not Responses: every harness speaks chat, and OPENAI_BASE_URL moves this provider
      // to local servers that mostly speak only chat. `openai-responses` is the same service.
      wire: "chat",
      envKey: "OPENAI_API_KEY",
      keysUrl: "https://platform.openai.com/api-keys",
      setup: true,
      // Strict about message fields: an assistant message with `reasoning_content` is a 400.
      reasoningBack: "never",
      source: "https://platform.openai.com/docs/api-reference/chat",
    },
    {
      id: "openai-responses",
      name: "OpenAI (Responses)",
      baseUrl: DEFAULT_OPENAI_BASE_URL,
      wire: "responses",
      envKey: "OPENAI_API_KEY",
      keysUrl: "https://platform.openai.com/api-keys",
      source: "https://platform.openai.com/docs/api-reference/responses",
    },
    {
      id: "anthropic",
      name: "Anthropic",
      baseUrl: "https://api.anthropic.com",
      wire: "messages",
      envKey: "ANTHROPIC_API_KEY",
      keysUrl: "https://console.anthropic.com/settings/keys",
      authStyle: "x-api-key",
      source: "https://docs.anthropic.com/en/api/overview",
    },
    {
      id: "openrouter",
      name: "OpenRouter",
      baseUrl: "https://openrouter.ai/api/v1",
      wire: "chat",
      envKey: "OPENROUTER_API_KEY",
      keysUrl: "https://openrouter.ai/keys",
      setup: true,
      source: "https://openrouter.ai/docs/quickstart",
    },
    {
      id: "deepseek",
      name: "DeepSeek",
      baseUrl: "https://api.deepseek.com",
      wire: "chat",
      envKey: "DEEPSEEK_API_KEY",
      keysUrl: "https://platform.deepseek.com/api_keys",
      setup: true,
      // Thinking mode: a turn with tool calls needs its reasoning_content back, else a 400.
      reasoningBack: "present",
      // Its chat models read text only: an image part is refused.
      images: false,
      source: "https://api-docs.deepseek.com/guides/thinking_mode",
    },
    {
      id: "deepseek-anthropic",
      name: "DeepSeek (Anthropic API)",
      baseUrl: "https://api.deepseek.com/anthropic",
      wire: "messages",
      envKey: "DEEPSEEK_API_KEY",
      keysUrl: "https://platform.deepseek.com/api_keys",
      authStyle: "x-api-key",
      // The compatibility table lists image content as not supported.
      images: false,
      source: "https://api-docs.deepseek.com/guides/anthropic_api",
    },
    {
      id: "moonshot",
      name: "Moonshot (Kimi)",
      baseUrl: "https://api.moonshot.ai/v1",
      wire: "chat",
      envKey: "MOONSHOT_API_KEY",
      keysUrl: "https://platform.moonshot.ai/console/api-keys",
      setup: true,
      // Kimi thinking models keep reasoning_content across tool calls; without it, a 400.
      reasoningBack: "present",
      source: "https://platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model",
    },
    {
      id: "moonshot-anthropic",
      name: "Moonshot (Kimi, Anthropic API)",
      baseUrl: "https://api.moonshot.ai/anthropic",
      wire: "messages",
      envKey: "MOONSHOT_API_KEY",
      keysUrl: "https://platform.moonshot.ai/console/api-keys",
      // Its Claude Code set-up passes the key as ANTHROPIC_AUTH_TOKEN, a bearer token.
      authStyle: "bearer",
      // Moonshot's own page for this endpoint was not in the stored corpus; a guide that quotes it.
      source: "https://kimi-k25.com/blog/kimi-k2-5-claude-code",
    },
    {
      id: "zai",
      name: "Z.AI (GLM)",
      baseUrl: "https://api.z.ai/api/paas/v4",
      wire: "chat",
      envKey: "ZAI_API_KEY",
      keysUrl: "https://z.ai/manage-apikey/apikey-list",
      reasoningBack: "present",
      source: "https://docs.z.ai/api-reference/introduction",
    },
    {
      id: "zai-anthropic",
      name: "Z.AI (GLM, Anthropic API)",
      baseUrl: "https://api.z.ai/api/anthropic",
      wire: "messages",
      envKey: "ZAI_API_KEY",
      keysUrl: "https://z.ai/manage-apikey/apikey-list",
      authStyle: "bearer",
      source: "https://docs.z.ai/devpack/tool/claude",
    },
    {
      id: "dashscope",
      name: "Alibaba Cloud (Qwen)",
      baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
      wire: "chat",
      envKey: "DASHSCOPE_API_KEY",
      keysUrl: "https://modelstudio.console.alibabacloud.com/",
      setup: true,
      // Hybrid Qwen3 models think only when asked, through this non-standard body field.
      extraBody: { enable_thinking: true },
      source: "https://www.alibabacloud.com/help/en/model-studio/deep-thinking",
    },
    {
      id: "minimax",
      name: "MiniMax",
      baseUrl: "https://api.minimax.io/anthropic",
      wire: "messages",
      envKey: "MINIMAX_API_KEY",
      keysUrl: "https://platform.minimax.io/user-center/basic-information/interface-key",
      authStyle: "x-api-key",
      source: "https://platform.minimax.io/docs/api-reference/text-anthropic-api",
    },
    {
      id: "gemini",
      name: "Google Gemini",
      baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
      wire: "chat",
      envKey: "GEMINI_API_KEY",
      keysUrl: "https://aistudio.google.com/apikey",
      setup: true,
      // A protobuf-backed endpoint: any unknown field is "Invalid JSON payload received".
      reasoningBack: "never",
      source: "https://ai.google.dev/gemini-api/docs/openai",
    },
    {
      id: "groq",
      name: "Groq",
      baseUrl: "https://api.groq.com/openai/v1",
      wire: "chat",
      envKey: "GROQ_API_KEY",
      keysUrl: "https://console.groq.com/keys",
      setup: true,
      // "property 'reasoning_content' is unsupported" on an assistant message.
      reasoningBack: "never",
      source: "https://console.groq.com/docs/openai",
    },
    {
      id: "mistral",
      name: "Mistral",
      baseUrl: "https://api.mistral.ai/v1",
      wire: "chat",
      envKey: "MISTRAL_API_KEY",
      keysUrl: "https://console.mistral.ai/api-keys",
      // Rejects unknown fields ("extra_forbidden"), reasoning_content on assistant messages too.
      reasoningBack: "never",
      source: "https://docs.mistral.ai/api/",
    },
    {
      id: "xai",
      name: "xAI (Grok)",
      baseUrl: "https://api.x.ai/v1",
      wire: "chat",
      envKey: "XAI_API_KEY",
      keysUrl: "https://console.x.ai/",
      source: "https://docs.x.ai/docs/api-reference",
    },
    {
      id: "together",
      name: "Together AI",
      baseUrl: "https://api.together.xyz/v1",
      wire: "chat",
      envKey: "TOGETHER_API_KEY",
      keysUrl: "https://api.together.xyz/settings/api-keys",
      source: "https://docs.together.ai/docs/openai-api-compatibility",
    },
    {
      id: "fireworks",
      name: "Fireworks AI",
      baseUrl: "https://api.fireworks.ai/inference/v1",
      wire: "chat",
      envKey: "FIREWORKS_API_KEY",
      keysUrl: "https://fireworks.ai/account/api-keys",
      source: "https://docs.fireworks.ai/tools-sdks/openai-compatibility",
    },
    {
      id: "ollama",
      name: "Ollama",
      baseUrl: "http://localhost:11434/v1",
      wire: "chat",
      local: true,
      source: "https://github.com/ollama/ollama/blob/main/docs/openai.md",
    },
    {
      id: "lmstudio",
      name: "LM Studio",
      baseUrl: "http://localhost:1234/v1",
      wire: "chat",
      local: true,
      source: "https://lmstudio.ai/docs/app/api/endpoints/openai",
    },
    {
      id: "llamacpp",
      name: "llama.cpp",
      baseUrl: "http://localhost:8080/v1",
      wire: "chat",
      local: true,
      source: "https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md",
    },
    {
      id: "vllm",
      name: "vLLM",
      baseUrl: "http://localhost:8000/v1",
      wire: "chat",
      local: true,
      source: "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html",
    },
    {
      id: "sglang",
      name: "SGLang",
      baseUrl: "http://localhost:30000/v1",
      wire: "chat",
      local: true,
      source: "https://docs.sglang.ai/basic_usage/openai_api_completions.html",
    },
  ];
}

export function findPreset(id: string): ProviderPreset | undefined {
  return providerPresets().find((p) => p.id === id);
}
