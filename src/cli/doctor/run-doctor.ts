import { resolveHome } from "../../config/home.js";
import { setupProblem } from "../../config/setup-problem.js";
import type { CliOverrides, Config } from "../../config/types.js";
import { probeEndpoint } from "../../providers/probe-endpoint.js";
import { type Check, fail, skip } from "./check.js";
import { endpointChecks, unconfiguredChecks } from "./endpoint-checks.js";
import { configCheck, databaseCheck, homeCheck, nodeCheck } from "./local-checks.js";
import { localServersCheck } from "./local-servers-check.js";
import { harnessCheck, mcpChecks, sandboxCheck } from "./runtime-checks.js";
import { windowCheck } from "./window-check.js";

export interface DoctorOptions {
  env: NodeJS.ProcessEnv;
  cli: CliOverrides;
  userHome: string;
  cwd: string;
  version: string;
  /** Bound on each network step and each MCP server start. */
  timeoutMs: number;
}

export interface DoctorReport {
  /** True when nothing failed (warnings allowed): the exit code is 0 exactly then. */
  ok: boolean;
  checks: Check[];
}

/**
 * Every check in the order a user would fix things: this machine, then the config, then the
 * endpoint it names, then what sessions build on top (harness, sandbox, MCP). A check whose
 * prerequisite failed is reported as skipped rather than failing a second time.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const { env, userHome } = options;
  const checks: Check[] = [nodeCheck()];
  let home: string | undefined;
  try {
    home = resolveHome(env, userHome);
  } catch (error) {
    checks.push(
      fail(
        "home",
        "Home folder",
        (error as Error).message,
        "Set INTERPRETER_HOME to an absolute path, or unset it.",
      ),
    );
  }
  if (home !== undefined) {
    const homeResult = homeCheck(home);
    checks.push(homeResult);
    checks.push(
      homeResult.status === "fail"
        ? skip("database", "Database", "not checked: the home folder is unusable")
        : databaseCheck(home),
    );
  }

  const { check, config } = configCheck({ env, cli: options.cli, userHome });
  checks.push(check, await localServersCheck());
  if (!config) {
    for (const [id, title] of NEEDS_CONFIG)
      checks.push(skip(id, title, "not checked: the config is invalid"));
    return report(checks);
  }

  // A first run (or hosted OpenAI without a key) cannot get an answer: say so instead of probing.
  const problem = setupProblem(config, config.model);
  if (problem && (problem.kind === "unconfigured" || problem.kind === "no_key")) {
    checks.push(...unconfiguredChecks(problem));
    checks.push(await harnessCheck(config, { toolsRejected: false }));
    checks.push(
      skip(
        "window",
        "Context window",
        `not checked: ${problem.kind === "unconfigured" ? "nothing is configured" : "there is no API key"}`,
      ),
    );
    return report(await withRuntimeChecks(checks, { config, options }));
  }
  const p = config.provider;
  const probe = await probeEndpoint({
    endpoint: {
      providerId: p.id,
      baseUrl: p.baseUrl,
      ...(p.apiKey ? { apiKey: p.apiKey } : {}),
      model: config.model ?? "",
      wire: p.wireApi,
      headers: p.httpHeaders,
      queryParams: p.queryParams,
    },
    timeoutMs: options.timeoutMs,
    listOnly: !config.model,
  });
  const endpoint = endpointChecks(config, probe);
  checks.push(...endpoint);
  const toolsRejected = probe.tools?.ok === false && probe.tools.error.code === "tools_unsupported";
  checks.push(await harnessCheck(config, { toolsRejected }));
  checks.push(
    await windowCheck({
      config,
      env: options.env,
      cwd: options.cwd,
      userHome: options.userHome,
      timeoutMs: options.timeoutMs,
    }),
  );
  return report(await withRuntimeChecks(checks, { config, options }));
}

/** What sessions build on top of any endpoint: the sandbox and the MCP servers. */
async function withRuntimeChecks(
  checks: Check[],
  { config, options }: { config: Config; options: DoctorOptions },
): Promise<Check[]> {
  const { env, userHome } = options;
  const [sandbox, mcp] = await Promise.all([
    sandboxCheck({ env, home: config.home, userHome }),
    mcpChecks({ config, env, cwd: options.cwd, timeoutMs: options.timeoutMs, version: options.version }),
  ]);
  return [...checks, sandbox, ...mcp];
}

const NEEDS_CONFIG: Array<[string, string]> = [
  ["endpoint", "Endpoint"],
  ["harness", "Harness"],
  ["window", "Context window"],
  ["sandbox", "Sandbox"],
  ["mcp", "MCP servers"],
];

function report(checks: Check[]): DoctorReport {
  return { ok: checks.every((c) => c.status !== "fail"), checks };
}
