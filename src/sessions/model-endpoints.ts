import { endpointSettings } from "../config/endpoint-settings.js";
import type { Logger } from "../config/logger.js";
import type { Config } from "../config/types.js";
import { probeContextWindow } from "../providers/probe-context-window.js";
import { chooseWindow, type SessionWindow } from "../providers/served-window.js";
import type { ModelEndpoint, Provider } from "../providers/types.js";
import { createWindowCache } from "../providers/window-cache.js";

/**
 * The configured endpoint as the daemon's sessions share it: one provider per model, the model
 * list the endpoint offers (asked once, in the background) and each model's context window.
 */
export class ModelEndpoints {
  private readonly providers = new Map<string, Provider>();
  private discovered: string[] = [];
  private discovery: Promise<string[]> | undefined;
  /** Stops the window probes still under way when the daemon shuts down. */
  private readonly probes = new AbortController();
  private readonly windows = createWindowCache({
    probe: (model) => probeContextWindow({ endpoint: this.endpointFor(model), signal: this.probes.signal }),
  });

  constructor(
    private readonly deps: {
      config: Config;
      logger: Logger;
      createProvider(endpoint: ModelEndpoint): Provider;
    },
  ) {}

  /** Whether the endpoint's own list has arrived (sessions' pickers then change). */
  get discoveredAny(): boolean {
    return this.discovered.length > 0;
  }

  /** Model ids for the picker: configured ones plus what the endpoint lists. */
  models(): string[] {
    return [...new Set([...this.deps.config.models, ...this.discovered])];
  }

  /** Starts discovery once; resolves with the discovered ids (empty when unreachable). */
  discoverModels(): Promise<string[]> {
    this.discovery ??= (async () => {
      const model = this.deps.config.model ?? "";
      const signal = AbortSignal.timeout(5_000);
      try {
        this.discovered = await this.provider(model).listModels({ signal });
      } catch (error) {
        this.deps.logger.info({ err: String(error) }, "model list unavailable");
      }
      return this.discovered;
    })();
    return this.discovery;
  }

  provider(model: string): Provider {
    let provider = this.providers.get(model);
    if (!provider) {
      provider = this.deps.createProvider(this.endpointFor(model));
      this.providers.set(model, provider);
    }
    return provider;
  }

  /**
   * The context window sessions use for `model` (`SessionDeps.window`): config wins without
   * asking the server; else the server is asked once per model and runtime, silently.
   */
  async window(model: string): Promise<SessionWindow> {
    const configured = this.deps.config.modelContextWindow;
    const served = configured === undefined && model ? await this.windows.learn(model) : undefined;
    return chooseWindow({ model, configured, served });
  }

  /** Stops the probes still under way. */
  close(): void {
    this.probes.abort();
  }

  private endpointFor(model: string): ModelEndpoint {
    const p = this.deps.config.provider;
    return {
      providerId: p.id,
      baseUrl: p.baseUrl,
      apiKey: p.apiKey,
      model,
      ...endpointSettings(this.deps.config),
      headers: p.httpHeaders,
      queryParams: p.queryParams,
      maxRetries: p.requestMaxRetries,
      streamIdleTimeoutMs: p.streamIdleTimeoutMs,
    };
  }
}
