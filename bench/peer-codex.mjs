// codex-acp (Zed's ACP adapter around the Codex Rust core), shipped on npm as a native binary.
// This Codex refuses `wire_api = "chat"`, so it talks to the Responses-API twin of the scripted
// model (responses-model.mjs), which offers its `exec_command` tool the same ten commands.
import { writeFileSync } from "node:fs";
import path from "node:path";

export const codexAcp = {
  name: "codex-acp 0.16 (Rust)",
  pkg: "@zed-industries/codex-acp",
  version: "0.16.0",
  wire: "responses",
  /** The platform binary itself, as Zed runs it, not the npm launcher (a node process in the tree). */
  command: (dir) =>
    path.join(
      dir,
      `node_modules/@zed-industries/codex-acp-${process.platform}-${process.arch}/bin/codex-acp`,
    ),
  args: () => [],
  /** A fresh CODEX_HOME whose provider is the scripted model; no approvals, no sandbox, no retries. */
  setup({ home, modelUrl }) {
    writeFileSync(
      path.join(home, "config.toml"),
      [
        'model = "mock-model"',
        'model_provider = "bench"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        "check_for_update_on_startup = false",
        "",
        "[analytics]",
        "enabled = false",
        "",
        "[model_providers.bench]",
        'name = "bench"',
        `base_url = "${modelUrl}"`,
        'wire_api = "responses"',
        'env_key = "OPENAI_API_KEY"',
        "request_max_retries = 0",
        "stream_max_retries = 0",
        "",
      ].join("\n"),
    );
    return { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, OPENAI_API_KEY: "x", RUST_LOG: "error" };
  },
};
