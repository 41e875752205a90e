import type { AuthStyle, Config, ReasoningBack, WireApi } from "./types.js";

/**
 * What the selected provider's config adds to a model endpoint beyond its URL and key: the
 * wire, the server's quirks, and the reasoning settings. Field names are `ModelEndpoint`'s
 * (src/providers/types.ts), so whoever builds an endpoint spreads this in; unset fields stay
 * absent and the wire's defaults apply.
 */
export interface EndpointSettings {
  wire: WireApi;
  reasoningBack?: ReasoningBack;
  extraBody?: Record<string, unknown>;
  authStyle?: AuthStyle;
  reasoning?: { effort?: string; summary?: string };
  thinkingBudget?: number;
}

export function endpointSettings(config: Config): EndpointSettings {
  const p = config.provider;
  return {
    wire: p.wireApi,
    ...(p.reasoningBack === undefined ? {} : { reasoningBack: p.reasoningBack }),
    ...(p.extraBody === undefined ? {} : { extraBody: { ...p.extraBody } }),
    ...(p.authStyle === undefined ? {} : { authStyle: p.authStyle }),
    ...(config.reasoning === undefined ? {} : { reasoning: { ...config.reasoning } }),
    ...(config.thinkingBudget === undefined ? {} : { thinkingBudget: config.thinkingBudget }),
  };
}
