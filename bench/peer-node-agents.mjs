// The Node peers. qwen-code speaks OpenAI chat completions and runs against the scripted model;
// claude-code-acp and gemini-cli only speak their vendors' own wire formats, which the scripted
// model (OpenAI chat completions) does not serve, so they are listed with the reason instead.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export const qwenCode = {
  name: "qwen-code 0.24 (Node)",
  pkg: "@qwen-code/qwen-code",
  version: "0.24.4",
  wire: "chat",
  shell: { name: "run_shell_command", args: (command) => ({ command }) },
  command: () => process.execPath,
  args: ({ dir, modelUrl }) => [
    path.join(dir, "node_modules/@qwen-code/qwen-code/cli-entry.js"),
    "--acp",
    "--auth-type",
    "openai",
    "--openai-base-url",
    modelUrl,
    "--openai-api-key",
    "x",
    "--model",
    "mock-model",
    "--approval-mode",
    "yolo",
  ],
  setup({ home }) {
    mkdirSync(path.join(home, ".qwen"), { recursive: true });
    writeFileSync(
      path.join(home, ".qwen/settings.json"),
      JSON.stringify({
        security: { auth: { selectedType: "openai" } },
        privacy: { usageStatisticsEnabled: false },
      }),
    );
    return { PATH: process.env.PATH, HOME: home, OPENAI_API_KEY: "x", OPENAI_MODEL: "mock-model" };
  },
};

export const claudeCodeAcp = {
  name: "claude-code-acp 0.16 (Node)",
  pkg: "@zed-industries/claude-code-acp",
  version: "0.16.2",
  unsupported:
    "drives the Claude Agent SDK, which only speaks the Anthropic Messages API (ANTHROPIC_BASE_URL → /v1/messages); the scripted model serves OpenAI chat completions",
};

export const geminiCli = {
  name: "gemini-cli 0.61 (Node)",
  pkg: "@google/gemini-cli",
  version: "0.61.0",
  unsupported:
    "only speaks the Gemini API (@google/genai generateContent; GOOGLE_GEMINI_BASE_URL moves the host, not the wire format); the scripted model serves OpenAI chat completions",
};
