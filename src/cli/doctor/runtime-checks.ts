import type { Config } from "../../config/types.js";
import { builtinHarnesses, chooseHarness, harnessProblem } from "../../harnesses/harness-list.js";
import { buildChildEnv } from "../../tools/exec/child-env.js";
import { createMcpManager } from "../../tools/mcp/mcp-manager.js";
import { parseMcpServers } from "../../tools/mcp/mcp-server-spec.js";
import { sandboxSummary } from "../../tools/sandbox/sandbox-summary.js";
import { createSandboxedExec } from "../../tools/sandbox/sandboxed-exec.js";
import { type Check, fail, ok, warn } from "./check.js";
import { TEXT_PROTOCOL_HARNESS } from "./endpoint-checks.js";

/** Which harness a new session would use for the configured model, and why. */
export async function harnessCheck(config: Config, options: { toolsRejected: boolean }): Promise<Check> {
  const harnesses = builtinHarnesses();
  const model = config.model ?? "";
  const wire = config.provider.wireApi;
  const problem =
    config.harness &&
    harnessProblem({ id: config.harness, source: config.harnessSource ?? config.file, harnesses, wire });
  if (problem)
    return fail("harness", "Harness", problem, `Fix it there, or remove it to choose by model family.`);
  const { harness, reason } = chooseHarness({ harnesses, explicit: config.harness, model, wire });
  const detail = `${harness.id} (${reason})`;
  if (options.toolsRejected && !(await harness.load()).parse) {
    return warn(
      "harness",
      "Harness",
      `${detail}; it needs native tool calls, which this endpoint rejects, so sessions will switch to ${TEXT_PROTOCOL_HARNESS}`,
      `Set \`harness = "${TEXT_PROTOCOL_HARNESS}"\` in ${config.file} to start there.`,
    );
  }
  return ok("harness", "Harness", detail);
}

/** Starts the bubblewrap sandbox once around /bin/true, exactly as sessions will. */
export async function sandboxCheck(options: {
  env: NodeJS.ProcessEnv;
  home: string;
  userHome: string;
}): Promise<Check> {
  const sandbox = createSandboxedExec({
    env: buildChildEnv(options.env),
    whenUnavailable: "run-unconfined",
    home: options.userHome,
    hidden: [options.home],
  });
  try {
    const status = await sandbox.status();
    if (status.available) return ok("sandbox", "Sandbox", sandboxSummary(status));
    return warn(
      "sandbox",
      "Sandbox",
      `commands will not be sandboxed: ${status.reason}`,
      "Install bubblewrap (`sudo apt install bubblewrap`) and allow unprivileged user namespaces; see docs/security.md. Until then `auto` asks before every command.",
    );
  } finally {
    sandbox.dispose();
  }
}

/** Starts every MCP server of config.toml (each bounded by `timeoutMs`), reports, and stops them. */
export async function mcpChecks(options: {
  config: Config;
  env: Record<string, string | undefined>;
  cwd: string;
  timeoutMs: number;
  version: string;
}): Promise<Check[]> {
  const { config } = options;
  const { servers, problems } = parseMcpServers({ config: config.mcpServers, acp: [] });
  const checks: Check[] = problems.map((problem) =>
    fail("mcp", "MCP config", problem, `Fix the [mcp_servers] entry named above in ${config.file}.`),
  );
  if (servers.length === 0) {
    return checks.length > 0 ? checks : [ok("mcp", "MCP servers", "none configured")];
  }
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  const manager = createMcpManager({
    env: options.env,
    logger: silent,
    cwd: options.cwd,
    clientVersion: options.version,
  });
  try {
    await manager.start(
      servers.map((spec) => ({
        ...spec,
        startupTimeoutMs: Math.min(spec.startupTimeoutMs, options.timeoutMs),
      })),
    );
    for (const status of manager.status()) {
      const title = `MCP ${status.name}`;
      if (status.state === "ready") {
        checks.push(
          ok(`mcp:${status.name}`, title, `started over ${status.transport}, ${status.tools} tools`),
        );
      } else {
        checks.push(
          fail(
            `mcp:${status.name}`,
            title,
            `did not start: ${status.error ?? status.state}`,
            `Run the server's command by hand to see its error, or fix/disable [mcp_servers.${status.name}] in ${config.file} (\`enabled = false\`).`,
          ),
        );
      }
    }
  } finally {
    await manager.close();
  }
  return checks;
}
