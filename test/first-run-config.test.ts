import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { needsSetup } from "../src/config/needs-setup.js";
import { ConfigError } from "../src/config/types.js";
import { newConfigText, writeNewConfig } from "../src/config/write-new-config.js";
import { tempDir } from "./support/in-process.js";

/** What the chat sees: the loaded config, whether its file exists, and the environment. */
function facts(
  env: Record<string, string> = {},
  cli: Parameters<typeof loadConfig>[0]["cli"] = {},
  file?: string,
) {
  const home = tempDir("oi-setup-");
  if (file !== undefined) writeFileSync(path.join(home, "config.toml"), file);
  const fullEnv = { INTERPRETER_HOME: home, ...env };
  const config = loadConfig({ env: fullEnv, cli, userHome: home });
  return needsSetup({ config, configFileExists: existsSync(config.file) });
}

describe("needsSetup", () => {
  it("is true only when nothing at all is configured", () => {
    expect(facts()).toBe(true);
    expect(facts({ OPENAI_API_KEY: "sk-x" })).toBe(false);
    expect(facts({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1" })).toBe(false);
    expect(facts({}, { model: "gpt-5" })).toBe(false);
    expect(facts({}, { overrides: ["model_provider=ollama"] })).toBe(false);
    expect(facts({}, { overrides: ['openai_base_url="http://127.0.0.1:9/v1"'] })).toBe(false);
    // Even an empty file is the user's: the set-up never writes over it.
    expect(facts({}, {}, "")).toBe(false);
  });

  it("treats a blank OPENAI_API_KEY as unset", () => {
    expect(facts({ OPENAI_API_KEY: " \n" })).toBe(true);
  });
});

describe("the config the set-up writes", () => {
  it("selects a built-in server with two lines that load as that provider and model", () => {
    const text = newConfigText({ providerId: "ollama", model: "qwen2.5-coder:7b" });
    expect(text).toBe('model = "qwen2.5-coder:7b"\nmodel_provider = "ollama"\n');
    const home = tempDir("oi-setup-");
    writeNewConfig({ file: path.join(home, "config.toml"), text });
    const config = loadConfig({ env: { INTERPRETER_HOME: home }, userHome: home });
    expect(config.model).toBe("qwen2.5-coder:7b");
    expect(config.provider).toMatchObject({
      id: "ollama",
      baseUrl: "http://localhost:11434/v1",
      wireApi: "chat",
    });
  });

  it("adds a [model_providers] table for a server or service that is not built in", () => {
    const home = tempDir("oi-setup-");
    const file = path.join(home, "nested", "config.toml");
    writeNewConfig({
      file,
      text: newConfigText({
        providerId: "openrouter",
        model: "qwen/qwen3-coder",
        provider: {
          name: "OpenRouter",
          baseUrl: "https://openrouter.ai/api/v1",
          envKey: "OPENROUTER_API_KEY",
        },
      }),
    });
    expect(readFileSync(file, "utf8")).toContain('[model_providers.openrouter]\nname = "OpenRouter"\n');
    const config = loadConfig({
      env: { INTERPRETER_HOME: path.dirname(file), OPENROUTER_API_KEY: "sk-or" },
      userHome: home,
    });
    expect(config.provider).toMatchObject({
      id: "openrouter",
      baseUrl: "https://openrouter.ai/api/v1",
      envKey: "OPENROUTER_API_KEY",
      apiKey: "sk-or",
      wireApi: "chat",
    });
  });

  it("leaves out model_provider for the default provider", () => {
    expect(newConfigText({ providerId: "openai", model: "gpt-5" })).toBe('model = "gpt-5"\n');
  });

  it("never replaces an existing file, and leaves no temporary file behind", () => {
    const home = tempDir("oi-setup-");
    const file = path.join(home, "config.toml");
    writeFileSync(file, 'model = "mine"\n');
    let thrown: unknown;
    try {
      writeNewConfig({ file, text: 'model = "other"\n' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(`${file} already exists; it was left as it is`);
    expect(readFileSync(file, "utf8")).toBe('model = "mine"\n');
    expect(readdirSync(home)).toEqual(["config.toml"]);
  });
});
