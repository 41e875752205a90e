import os from "node:os";
import path from "node:path";
import { endpointSettings } from "../../config/endpoint-settings.js";
import { gitCeilings } from "../../config/git-ceilings.js";
import type { Config } from "../../config/types.js";
import { loadAgentsMd } from "../../context/agents-md.js";
import { findProjectRoot, holdsRepository } from "../../context/project-root.js";
import { loadSkills } from "../../context/skills/load-skills.js";
import { skillRoots } from "../../context/skills/skill-roots.js";
import { builtinHarnesses, chooseHarness, findHarness } from "../../harnesses/harness-list.js";
import type { HarnessContext } from "../../harnesses/types.js";
import { probeContextWindow } from "../../providers/probe-context-window.js";
import { chooseWindow, type SessionWindow } from "../../providers/served-window.js";
import { localTimeZone } from "../../sessions/local-time-zone.js";
import { fitMessage, fitStops, judgeFit, windowSource } from "../../sessions/window-fit.js";
import { bareRequestTokens, leanHarness } from "../../sessions/window-fit-gate.js";
import { type Check, fail, ok, skip, warn } from "./check.js";

const ID = "window";
const TITLE = "Context window";

/**
 * Whether the first request of the harness a new session in `cwd` would use fits the model's
 * context window with a working margin, as the session itself checks before its first turn:
 * the window from config, else from the server, else the built-in table. A request larger than
 * a stated window fails (sessions refuse to send it), a tight one warns.
 */
export async function windowCheck(options: {
  config: Config;
  env: NodeJS.ProcessEnv;
  cwd: string;
  userHome: string;
  timeoutMs: number;
}): Promise<Check> {
  const { config } = options;
  const model = config.model;
  if (!model) return skip(ID, TITLE, "not checked: no model is configured");
  const harnesses = builtinHarnesses();
  if (config.harness && !findHarness(harnesses, config.harness))
    return skip(ID, TITLE, "not checked: the harness is unknown");
  const p = config.provider;
  const served = await probeContextWindow({
    endpoint: {
      providerId: p.id,
      baseUrl: p.baseUrl,
      ...(p.apiKey ? { apiKey: p.apiKey } : {}),
      model,
      ...endpointSettings(config),
      headers: p.httpHeaders,
      queryParams: p.queryParams,
    },
    timeoutMs: Math.min(options.timeoutMs, 5_000),
  });
  const window = chooseWindow({ model, configured: config.modelContextWindow, served });
  const harness = await chooseHarness({
    harnesses,
    explicit: config.harness,
    model,
    wire: config.provider.wireApi,
  }).harness.load();
  const ctx = await sessionLikeContext(options);
  const opened = harness.open(ctx);
  const fit = judgeFit(bareRequestTokens(opened, opened.tools, ctx), window.tokens);
  const mcpNote = Object.keys(config.mcpServers).length > 0 ? " (MCP tools not counted)" : "";
  if (fit.fits) {
    const detail = `${harness.id}'s first request ~${fit.requestTokens} tokens${mcpNote} + margin ${fit.margin} fits the ${window.tokens}-token window (from ${windowSource(window)})`;
    const smaller = servedSmaller(window);
    if (!smaller) return ok(ID, TITLE, detail);
    return warn(
      ID,
      TITLE,
      `${detail}, but ${smaller}`,
      `Lower \`model_context_window\` in ${config.file} to ${window.served?.tokens}, or raise the server's window: compaction starts from the configured size, and requests past the server's are refused.`,
    );
  }
  const lean = await leanHarness({ harnesses, current: harness.id, ctx, fit });
  const { problem, remedy } = fitMessage({
    fit,
    window,
    harness: harness.id,
    model,
    configFile: config.file,
    ...(lean ? { lean } : {}),
  });
  const detail = `${problem}${mcpNote}`;
  return fitStops(fit, window)
    ? fail(ID, TITLE, `${detail} Sessions will not send it.`, remedy)
    : warn(ID, TITLE, detail, remedy);
}

/** When config sets the window and the server states a smaller one, the words for it. */
function servedSmaller(window: SessionWindow): string | undefined {
  const served = window.served;
  if (window.from !== "config" || !served || served.assumed || served.tokens >= window.tokens)
    return undefined;
  return `the server's is ${served.tokens} (${served.source})`;
}

/** The context a new session in `cwd` would render with: its AGENTS.md and skills, today's date. */
async function sessionLikeContext(o: {
  config: Config;
  env: NodeJS.ProcessEnv;
  cwd: string;
  userHome: string;
}): Promise<HarnessContext> {
  const { config, cwd } = o;
  const ceilings = gitCeilings(o.env);
  const projectRoot = findProjectRoot(cwd, { ceilings });
  const [instructions, catalog] = await Promise.all([
    loadAgentsMd({ cwd, home: config.home, ceilings }).then(
      (loaded) => loaded.text,
      () => "",
    ),
    loadSkills(skillRoots({ cwd, projectRoot, userHome: o.userHome, interpreterHome: config.home })).catch(
      () => ({ skills: [] }),
    ),
  ]);
  const now = new Date();
  const two = (n: number) => String(n).padStart(2, "0");
  return {
    sessionId: "doctor",
    cwd,
    roots: [cwd],
    model: config.model ?? "",
    wire: config.provider.wireApi,
    images: config.modelSupportsImages,
    mode: config.mode,
    shell: path.basename(o.env.SHELL ?? "bash"),
    instructions,
    skills: catalog.skills.map(({ name, description, path }) => ({ name, description, path })),
    currentDate: `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`,
    timezone: localTimeZone({ env: o.env }),
    scratchDir: path.join(config.home, "sessions", "doctor"),
    platform: os.platform(),
    isGitRepo: holdsRepository(projectRoot),
    sandboxed: config.mode !== "full-access",
  };
}
