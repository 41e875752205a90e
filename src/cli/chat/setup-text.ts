import { nonEmpty } from "../../config/builtin-providers.js";
import type { HostedProvider } from "../../config/hosted-providers.js";
import {
  type LocalServerProbe,
  modelsSummary,
  portsLooked,
  serverAddress,
} from "../../providers/local-servers.js";
import type { Style } from "./style.js";

type Found = Extract<LocalServerProbe, { found: true }>;

/** "Ollama at http://127.0.0.1:11434 · 3 models". */
export function serverLabel(probe: Found): string {
  return `${serverAddress(probe)} · ${modelsSummary(probe.models, probe.server)}`;
}

/** "OpenRouter   OPENROUTER_API_KEY (set)": the provider and the one variable it needs. */
export function hostedLabel(
  provider: HostedProvider,
  env: Record<string, string | undefined>,
  width: number,
): string {
  const set = nonEmpty(env[provider.envKey]) !== undefined;
  return `${provider.name.padEnd(width)}  ${provider.envKey}${set ? " (set)" : ""}`;
}

/** The lines of a file, indented, for showing it before it is written. */
export function indented(text: string, style: Style): string[] {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => (line ? `    ${style.cyan(line)}` : ""));
}

/** How to use a hosted provider whose key is not set yet. */
export function keyAdvice(provider: HostedProvider, style: Style): string[] {
  const next =
    provider.id === "openai"
      ? 'then start the chat with a model: interpreter -m <model> (or put model = "<model>" in config.toml)'
      : `then run interpreter again and pick ${provider.name} to choose one of its models`;
  return [
    `${provider.name} reads its key from ${style.bold(provider.envKey)} (get one at ${provider.keysUrl}):`,
    `    ${style.cyan(`export ${provider.envKey}=<your key>`)}`,
    next,
  ];
}

/**
 * Without a terminal to ask in: what was found and the exact lines to put in config.toml, or
 * the variable each hosted provider needs.
 */
export function adviceLines(options: {
  file: string;
  probes: LocalServerProbe[];
  hosted: HostedProvider[];
  env: Record<string, string | undefined>;
  /** The config.toml text for a found server with models, by server id. */
  configFor(probe: Found): string;
  style: Style;
}): string[] {
  const { style } = options;
  const lines = [
    style.bold("No model is set up yet:"),
    `no ${options.file}, no OPENAI_BASE_URL or OPENAI_API_KEY, no -m.`,
  ];
  const usable = options.probes.filter((p): p is Found => p.found && p.models.length > 0);
  for (const probe of usable) {
    lines.push("", `Found ${serverLabel(probe)}. To use it, put these lines in ${options.file}:`);
    lines.push(...indented(options.configFor(probe), style));
    if (probe.models.length > 1) lines.push(`  (models: ${probe.models.join(", ")})`);
  }
  if (usable.length === 0) {
    lines.push("", `No local model server answered (${portsLooked(options.probes)}).`);
  }
  const width = Math.max(...options.hosted.map((p) => p.name.length));
  lines.push("", "Hosted providers, each with the one variable it needs:");
  lines.push(...options.hosted.map((p) => `  ${hostedLabel(p, options.env, width)}`));
  lines.push(
    "",
    "Run interpreter in a terminal to set it up step by step: with one of these variables exported,",
    "it lists the provider's models and writes config.toml for the one you pick.",
  );
  return lines;
}
