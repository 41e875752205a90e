import { listModels } from "./list-models.js";
import { ProviderRequestError } from "./provider-error.js";

/** A model server people run on their own machine, found by its usual port. */
export interface LocalServer {
  /** The `model_providers` id for config.toml. */
  id: string;
  name: string;
  port: number;
  /** config.toml knows the id already (`[model_providers.<id>]` is not needed). */
  builtin: boolean;
  /** What to do when the server runs but lists no model. */
  noModels: string;
}

/** The servers the first-run setup and `doctor` look for, in the order they are offered. */
export function localServers(): LocalServer[] {
  return [
    { id: "ollama", name: "Ollama", port: 11434, builtin: true, noModels: "run `ollama pull <model>`" },
    { id: "lmstudio", name: "LM Studio", port: 1234, builtin: true, noModels: "load a model in LM Studio" },
    {
      id: "llamacpp",
      name: "llama.cpp",
      port: 8080,
      builtin: false,
      noModels: "start llama-server with -m <model.gguf>",
    },
    { id: "vllm", name: "vLLM", port: 8000, builtin: false, noModels: "start vllm serve <model>" },
    {
      id: "sglang",
      name: "SGLang",
      port: 30000,
      builtin: false,
      noModels: "start sglang with --model-path <model>",
    },
  ];
}

/** A local server's answer: its model list, or why nothing usable answered on its port. */
export type LocalServerProbe =
  | { server: LocalServer; baseUrl: string; found: true; models: string[] }
  | { server: LocalServer; baseUrl: string; found: false; reason: string };

export const LOCAL_PROBE_TIMEOUT_MS = 1500;

export interface ProbeLocalServersOptions {
  /** Default: `localServers()`. */
  servers?: LocalServer[];
  /** Default `127.0.0.1`: the servers listen on IPv4 loopback by default. */
  host?: string;
  /** Bound on each server's answer, default `LOCAL_PROBE_TIMEOUT_MS`. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Asks every server's port for `GET /v1/models`, all at once, each bounded by the timeout, so a
 * port that accepts and never answers costs one timeout, not one per server. A server counts as
 * found when it answers with a model list (an empty one too); anything else on the port does
 * not. Results keep the servers' order. Never throws.
 */
export async function probeLocalServers(options: ProbeLocalServersOptions = {}): Promise<LocalServerProbe[]> {
  const servers = options.servers ?? localServers();
  const host = options.host ?? "127.0.0.1";
  const timeoutMs = options.timeoutMs ?? LOCAL_PROBE_TIMEOUT_MS;
  const signal = options.signal ?? new AbortController().signal;
  return Promise.all(
    servers.map(async (server): Promise<LocalServerProbe> => {
      const baseUrl = `http://${host}:${server.port}/v1`;
      try {
        const models = await listModels({
          endpoint: { providerId: server.id, baseUrl, model: "" },
          signal,
          timeoutMs,
        });
        return { server, baseUrl, found: true, models };
      } catch (error) {
        return { server, baseUrl, found: false, reason: whyNot(error, timeoutMs) };
      }
    }),
  );
}

/** Why a port does not count as a model server, in a few words. */
function whyNot(error: unknown, timeoutMs: number): string {
  if (!(error instanceof ProviderRequestError)) return error instanceof Error ? error.message : String(error);
  if (error.code === "network") return /refused/.test(error.message) ? "nothing listening" : error.message;
  if (error.code === "timeout") return `no answer within ${timeoutMs / 1000} s`;
  const status = error.status === undefined ? "" : ` (HTTP ${error.status})`;
  return `something answers, but not with a model list${status}`;
}

/** "Ollama at http://127.0.0.1:11434". */
export function serverAddress(probe: LocalServerProbe): string {
  return `${probe.server.name} at ${probe.baseUrl.replace(/\/v1$/, "")}`;
}

/** "3 models", "1 model", or what to do about none. */
export function modelsSummary(models: string[], server: LocalServer): string {
  const count = models.length;
  return count === 0 ? `no models: ${server.noModels}` : `${count} model${count === 1 ? "" : "s"}`;
}

/** "Ollama :11434, LM Studio :1234, …": where the probe looked. */
export function portsLooked(probes: LocalServerProbe[]): string {
  return probes.map((p) => `${p.server.name} :${p.server.port}`).join(", ");
}
