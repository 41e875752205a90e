/** A hosted OpenAI-compatible service the first-run setup can point config.toml at. */
export interface HostedProvider {
  /** The `model_providers` id written to config.toml (`openai` is built in). */
  id: string;
  name: string;
  baseUrl: string;
  /** The one environment variable that holds the key (`env_key`). */
  envKey: string;
  /** Where a user gets the key. */
  keysUrl: string;
}

/** The services people most often point a coding agent at, in the order the set-up lists them. */
export function hostedProviders(): HostedProvider[] {
  return [
    {
      id: "openai",
      name: "OpenAI",
      baseUrl: "https://api.openai.com/v1",
      envKey: "OPENAI_API_KEY",
      keysUrl: "https://platform.openai.com/api-keys",
    },
    {
      id: "openrouter",
      name: "OpenRouter",
      baseUrl: "https://openrouter.ai/api/v1",
      envKey: "OPENROUTER_API_KEY",
      keysUrl: "https://openrouter.ai/keys",
    },
    {
      id: "deepseek",
      name: "DeepSeek",
      baseUrl: "https://api.deepseek.com/v1",
      envKey: "DEEPSEEK_API_KEY",
      keysUrl: "https://platform.deepseek.com/api_keys",
    },
    {
      id: "moonshot",
      name: "Moonshot (Kimi)",
      baseUrl: "https://api.moonshot.ai/v1",
      envKey: "MOONSHOT_API_KEY",
      keysUrl: "https://platform.moonshot.ai/console/api-keys",
    },
    {
      id: "dashscope",
      name: "Alibaba Cloud (Qwen)",
      baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
      envKey: "DASHSCOPE_API_KEY",
      keysUrl: "https://modelstudio.console.alibabacloud.com/",
    },
    {
      id: "gemini",
      name: "Google Gemini",
      baseUrl: "https://generativelanguage.googleapis.com/v1beta/openai",
      envKey: "GEMINI_API_KEY",
      keysUrl: "https://aistudio.google.com/apikey",
    },
    {
      id: "groq",
      name: "Groq",
      baseUrl: "https://api.groq.com/openai/v1",
      envKey: "GROQ_API_KEY",
      keysUrl: "https://console.groq.com/keys",
    },
  ];
}
