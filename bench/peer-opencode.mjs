// opencode (Bun, single binary on npm) as `opencode acp`, with the scripted model configured as
// an OpenAI-compatible provider. Its shell tool is `bash` ({ command, description }).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const opencode = {
  name: "opencode 1.18 (Bun)",
  pkg: "opencode-ai",
  version: "1.18.33",
  wire: "chat",
  shell: { name: "bash", args: (command) => ({ command, description: "Runs the command" }) },
  /** The platform binary (npm's postinstall, which would link it, is not run). */
  command: (dir) => path.join(dir, `node_modules/opencode-${process.platform}-${process.arch}/bin/opencode`),
  args: () => ["acp"],
  setup({ home, modelUrl }) {
    const config = path.join(home, ".config/opencode");
    mkdirSync(config, { recursive: true });
    writeFileSync(
      path.join(config, "opencode.json"),
      JSON.stringify({
        $schema: "https://opencode.ai/config.json",
        model: "bench/mock-model",
        small_model: "bench/mock-model",
        autoupdate: false,
        share: "disabled",
        permission: { bash: "allow", edit: "allow", read: "allow" },
        provider: {
          bench: {
            npm: "@ai-sdk/openai-compatible",
            name: "bench",
            options: { baseURL: modelUrl, apiKey: "x" },
            models: { "mock-model": { name: "mock-model", tool_call: true } },
          },
        },
      }),
    );
    return {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_DATA_HOME: path.join(home, ".local/share"),
      XDG_CACHE_HOME: path.join(home, ".cache"),
      XDG_STATE_HOME: path.join(home, ".local/state"),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
      // It installs its plugin package into the config folder in the background at every start;
      // offline, that fails at once (harmless) instead of downloading while being measured.
      npm_config_offline: "true",
    };
  },
};
