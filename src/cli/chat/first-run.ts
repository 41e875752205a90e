import { existsSync } from "node:fs";
import { nonEmpty } from "../../config/builtin-providers.js";
import { type HostedProvider, hostedProviders } from "../../config/hosted-providers.js";
import { findPreset } from "../../config/provider-presets.js";
import { ConfigError } from "../../config/types.js";
import { type NewConfig, newConfigText, writeNewConfig } from "../../config/write-new-config.js";
import { listModels } from "../../providers/list-models.js";
import { type LocalServerProbe, portsLooked, probeLocalServers } from "../../providers/local-servers.js";
import type { ChatView } from "./chat-view.js";
import { adviceLines, hostedLabel, indented, keyAdvice, serverLabel } from "./setup-text.js";
import type { Style } from "./style.js";
import type { TerminalInput } from "./terminal-input.js";

export type FirstRunOutcome = { type: "written"; file: string } | { type: "quit"; code: number };

export interface FirstRunOptions {
  /** The config.toml to create. */
  file: string;
  env: Record<string, string | undefined>;
  input: TerminalInput;
  renderer: ChatView;
  style: Style;
}

/** A hosted provider may take a while to list hundreds of models. */
const LIST_TIMEOUT_MS = 10_000;

/** An endpoint the user may pick, with what config.toml needs to say to use it. */
interface Endpoint {
  name: string;
  baseUrl: string;
  apiKey?: string;
  config: Omit<NewConfig, "model">;
}

type Found = Extract<LocalServerProbe, { found: true }>;

/** The config.toml lines that select a found local server (its table only when it is no preset). */
export function serverConfig(probe: Found): Omit<NewConfig, "model"> {
  const { server } = probe;
  return {
    providerId: server.id,
    ...(findPreset(server.id) ? {} : { provider: { name: server.name, baseUrl: probe.baseUrl } }),
  };
}

/** No terminal to ask in: probe as the set-up would, and say what to put where. */
export async function setupAdvice(options: {
  file: string;
  env: Record<string, string | undefined>;
  style: Style;
}): Promise<string[]> {
  return adviceLines({
    ...options,
    probes: await probeLocalServers(),
    hosted: hostedProviders(),
    configFor: (probe) => newConfigText({ ...serverConfig(probe), model: probe.models[0] as string }),
  });
}

type Step = { endpoint: Endpoint } | { go: "servers" | "hosted" | "rescan" } | { quit: number };

/**
 * The chat's first run with nothing configured: look for model servers on loopback and offer
 * them (or the hosted providers), list the chosen endpoint's models, show the config.toml it
 * would write and write it only on `y`. Esc in a model list goes back to the list before it;
 * Esc in the first list, or `n` at the end, writes nothing. A failed model listing is shown and
 * goes back too.
 */
export async function firstRun(options: FirstRunOptions): Promise<FirstRunOutcome> {
  const { renderer, style } = options;
  renderer.lines([
    style.bold("No model is set up yet."),
    style.dim("Looking for model servers on this machine…"),
  ]);
  let probes = await probeLocalServers();
  let found = probes.filter((p): p is Found => p.found);
  let at: "servers" | "hosted" = found.length > 0 ? "servers" : "hosted";
  for (;;) {
    const step: Step =
      at === "servers" ? await pickServer(options, found) : await pickHosted(options, probes, found);
    if ("quit" in step) {
      if (step.quit === 0) renderer.info("Set-up left; nothing was written.");
      return { type: "quit", code: step.quit };
    }
    if ("go" in step) {
      if (step.go === "rescan") {
        renderer.info("Looking again…");
        probes = await probeLocalServers();
        found = probes.filter((p): p is Found => p.found);
        at = found.length > 0 ? "servers" : "hosted";
      } else at = step.go;
      continue;
    }
    const model = await pickModel(options, step.endpoint);
    if (model !== undefined) return confirm(options, { ...step.endpoint.config, model });
  }
}

async function pickServer(options: FirstRunOptions, found: Found[]): Promise<Step> {
  options.renderer.lines([
    "",
    options.style.bold(found.length === 1 ? "Found a model server:" : "Found model servers:"),
  ]);
  const answer = await pick(
    options,
    [...found.map(serverLabel), "A hosted provider instead (OpenAI, OpenRouter, …)"],
    { r: "looks again" },
  );
  if (answer.type === "cancel") return { quit: 0 };
  if (answer.type === "key") return { go: "rescan" };
  const probe = found[answer.index];
  if (!probe) return { go: "hosted" };
  return { endpoint: { name: probe.server.name, baseUrl: probe.baseUrl, config: serverConfig(probe) } };
}

async function pickHosted(
  options: FirstRunOptions,
  probes: LocalServerProbe[],
  found: Found[],
): Promise<Step> {
  const { renderer, style, env } = options;
  if (found.length === 0)
    renderer.lines(["", `No model server answered on this machine (${portsLooked(probes)}).`]);
  renderer.lines(["", style.bold("Hosted providers, each with the one variable it needs:")]);
  const hosted = hostedProviders();
  const width = Math.max(...hosted.map((p) => p.name.length));
  const answer = await pick(
    options,
    hosted.map((p) => hostedLabel(p, env, width)),
    found.length > 0 ? {} : { r: "looks for local servers again" },
  );
  if (answer.type === "cancel") return found.length > 0 ? { go: "servers" } : { quit: 0 };
  if (answer.type === "key") return { go: "rescan" };
  const provider = hosted[answer.index] as HostedProvider;
  const apiKey = nonEmpty(env[provider.envKey]);
  if (apiKey === undefined) {
    renderer.lines(["", ...keyAdvice(provider, style)]);
    return { quit: 0 };
  }
  // Every hosted provider is a preset: `model_provider` alone selects it.
  const config: Endpoint["config"] = { providerId: provider.id };
  return { endpoint: { name: provider.name, baseUrl: provider.baseUrl, apiKey, config } };
}

/** The endpoint's models to pick from; undefined to go back (Esc, a failure, an empty list). */
async function pickModel(options: FirstRunOptions, endpoint: Endpoint): Promise<string | undefined> {
  const { renderer, style } = options;
  let models: string[];
  try {
    models = await listModels({
      endpoint: {
        providerId: endpoint.config.providerId,
        baseUrl: endpoint.baseUrl,
        model: "",
        ...(endpoint.apiKey === undefined ? {} : { apiKey: endpoint.apiKey }),
      },
      signal: new AbortController().signal,
      timeoutMs: LIST_TIMEOUT_MS,
    });
  } catch (error) {
    renderer.failed(error instanceof Error ? error.message : String(error));
    return undefined;
  }
  if (models.length === 0) {
    renderer.failed(`${endpoint.name} lists no models`);
    return undefined;
  }
  renderer.lines(["", style.bold(`Models of ${endpoint.name}:`)]);
  const answer = await pick(options, models, {});
  if (answer.type !== "picked") return undefined;
  return models[answer.index];
}

async function confirm(options: FirstRunOptions, config: NewConfig): Promise<FirstRunOutcome> {
  const { renderer, style, file } = options;
  const text = newConfigText(config);
  renderer.lines(["", `This writes ${style.bold(file)}:`, "", ...indented(text, style), ""]);
  if (existsSync(file)) {
    renderer.failed(`${file} exists now; add the lines above to it yourself`);
    return { type: "quit", code: 1 };
  }
  renderer.lines([
    `  ${style.bold(style.yellow("[y]"))} write it and start  ${style.bold(style.yellow("[n]"))} no, write nothing`,
  ]);
  const answer = await options.input.readKey(["y", "n"], new AbortController().signal);
  if (answer.type !== "key" || answer.key === "n") {
    renderer.info(`Nothing was written; those lines in ${file} set it up later.`);
    return { type: "quit", code: 0 };
  }
  try {
    writeNewConfig({ file, text });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    renderer.failed(`${error.message}; add the lines above to it yourself`);
    return { type: "quit", code: 1 };
  }
  renderer.lines([`${style.green("✓")} Wrote ${file}`, ""]);
  return { type: "written", file };
}

/** A list with a line saying what was picked once it is. */
async function pick(options: FirstRunOptions, choices: string[], extraKeys: Record<string, string>) {
  const answer = await options.input.pick({
    title: "",
    items: choices.map((label, i) => ({ value: String(i), label })),
    numbered: true,
    extraKeys,
  });
  if (answer.type === "picked") options.renderer.lines([options.style.dim(`→ ${choices[answer.index]}`)]);
  return answer;
}
