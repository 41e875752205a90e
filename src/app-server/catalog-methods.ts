import type { Config, ProviderConfig } from "../config/types.js";
import { chooseHarness } from "../harnesses/harness-list.js";
import type { HarnessEntry } from "../harnesses/types.js";
import { RpcError } from "./json-rpc-lines.js";
import type { Thread } from "./threads.js";

type Params = Record<string, unknown>;

/** What threads this server starts later begin with, set by the catalog's `set` methods. */
export interface ThreadDefaults {
  model?: string;
  harness?: string;
}

/** Upstream's id for the native (Codex) harness is `null`. */
const NATIVE = "codex";

/**
 * Upstream Open Interpreter's catalog methods, `interpreter/{provider,model,harness}/list|set`,
 * in upstream's shapes: the lists describe the configured providers, the endpoint's models and
 * the harnesses for a provider's wire; `set` chooses what threads started afterwards use (for
 * this server; upstream also writes config.toml, which we leave to the user). With a
 * `threadId` (our extension) they read and switch that loaded thread's own options instead.
 */
export function catalogMethods(deps: {
  loaded(params: Params): Thread;
  setOption(thread: Thread, id: string, value: string): Promise<void>;
  config: Config;
  harnesses: readonly HarnessEntry[];
  models(): string[];
  defaults: ThreadDefaults;
}) {
  const { config } = deps;
  const threadList = (id: string, params: Params) => {
    const option = deps.loaded(params).options.find((o) => o.id === id);
    if (option?.type !== "select") return { data: [], current: null };
    const choices = option.options.flatMap((o) => ("value" in o ? [o] : o.options));
    return {
      data: choices.map((c) => ({ id: c.value, name: c.name, description: c.description ?? null })),
      current: option.currentValue,
    };
  };
  const threadSet = async (id: string, params: Params, value: unknown) => {
    if (typeof value !== "string") throw new RpcError(-32602, "id must be a string");
    await deps.setOption(deps.loaded(params), id, value);
    return { current: value };
  };
  const provider = (id: unknown): ProviderConfig => {
    const found = typeof id === "string" ? config.providers[id] : undefined;
    if (!found) throw new RpcError(-32602, `unknown provider ${JSON.stringify(id)}`);
    return found;
  };
  const model = () => deps.defaults.model ?? config.model ?? "";

  return {
    async "interpreter/provider/list"(params: Params) {
      const all = Object.values(config.providers).map((p) => providerEntry(p, config.provider.id));
      const shown =
        params.includeUnconfigured === true ? all : all.filter((p) => p.readiness !== "needsSetup");
      return { data: shown };
    },
    async "interpreter/provider/set"(params: Params) {
      const chosen = provider(params.providerId);
      // One endpoint per process: another provider means another `model_provider` at start-up.
      if (chosen.id !== config.provider.id)
        throw new RpcError(
          -32600,
          `this server runs provider ${config.provider.id}; start it with -c model_provider="${chosen.id}" to use ${chosen.id}`,
        );
      return {};
    },
    async "interpreter/model/list"(params: Params) {
      if (params.threadId !== undefined) return threadList("model", params);
      if (params.modelProvider != null) provider(params.modelProvider);
      return { data: modelEntries([...new Set([model(), ...deps.models()].filter(Boolean))], model()) };
    },
    async "interpreter/model/set"(params: Params) {
      if (params.threadId !== undefined) return threadSet("model", params, params.id ?? params.model);
      if (typeof params.model !== "string" || !params.model)
        throw new RpcError(-32602, "model must be a string");
      deps.defaults.model = params.model;
      return {};
    },
    async "interpreter/harness/list"(params: Params) {
      if (params.threadId !== undefined) return threadList("harness", params);
      const wire = provider(params.providerId ?? config.provider.id).wireApi;
      const forModel = typeof params.model === "string" ? params.model : model();
      const able = deps.harnesses.filter((h) => h.wires.includes(wire));
      const recommended = chooseHarness({ harnesses: able, model: forModel, wire }).harness.id;
      return {
        data: able.map((h) => ({
          id: h.id === NATIVE ? null : h.id,
          label: h.id === recommended ? `${h.title} (recommended)` : h.title,
          description: h.description,
          isRecommended: h.id === recommended,
        })),
      };
    },
    async "interpreter/harness/set"(params: Params) {
      if (params.threadId !== undefined) return threadSet("harness", params, params.id ?? params.harness);
      const id = params.harness ?? NATIVE;
      if (typeof id !== "string" || !deps.harnesses.some((h) => h.id === id))
        throw new RpcError(
          -32602,
          `unknown harness ${JSON.stringify(id)}; known: ${deps.harnesses.map((h) => h.id).join(", ")}`,
        );
      deps.defaults.harness = id;
      return {};
    },
  };
}

/** Codex's `Model` entries, as `model/list` answers them. */
export function modelEntries(ids: string[], current: string) {
  return ids.map((id) => ({
    id,
    model: id,
    displayName: id,
    description: "",
    hidden: false,
    supportedReasoningEfforts: [{ reasoningEffort: "medium", description: "The model's default" }],
    defaultReasoningEffort: "medium",
    inputModalities: ["text", "image"],
    isDefault: id === current,
  }));
}

/** Upstream's `InterpreterProvider`: every configured provider, its key's readiness from the environment. */
function providerEntry(p: ProviderConfig, current: string) {
  const local = !p.envKey;
  const readiness = p.apiKey ? "ready" : local ? "installed" : "needsSetup";
  const suffix = { ready: "Ready", installed: "No key needed", needsSetup: `Set ${p.envKey}` }[readiness];
  return {
    id: p.id,
    name: p.name,
    description: `${p.baseUrl} · ${suffix}`,
    readiness,
    kind: "existing",
    isCurrent: p.id === current,
    startsNewChat: p.id !== current,
    baseUrl: p.baseUrl,
    wireApi: p.wireApi,
    ...(p.envKey ? { envKey: p.envKey } : {}),
    configured: true,
    isDefault: p.id === current,
  };
}
