import { nonEmpty } from "../../config/builtin-providers.js";
import { providerPresets } from "../../config/provider-presets.js";
import type { Config } from "../../config/types.js";
import { displayUrl } from "../../providers/provider-error.js";
import { type Check, ok, warn } from "./check.js";

const WIRE_NAMES = { chat: "Chat Completions", responses: "Responses", messages: "Anthropic Messages" };

/**
 * The selected provider with its wire, and the other presets a key is already set for (a switch
 * away with `model_provider`). A missing key of the selected one is the endpoint check's failure.
 */
export function providerCheck(config: Config, env: Record<string, string | undefined>): Check {
  const p = config.provider;
  const detail = `${p.id} on ${p.wireApi} (${WIRE_NAMES[p.wireApi]}) at ${displayUrl(p.baseUrl)}`;
  const ready = providerPresets().filter(
    (preset) =>
      preset.id !== p.id && preset.envKey !== undefined && nonEmpty(env[preset.envKey]) !== undefined,
  );
  const others =
    ready.length > 0 ? `; keys also set for ${ready.map((r) => `${r.id} (${r.wire})`).join(", ")}` : "";
  if (p.envKey && !p.apiKey) {
    return warn(
      "provider",
      "Provider",
      `${detail}; \`${p.envKey}\` is not set${others}`,
      `Set \`${p.envKey}\`${p.keysUrl ? ` (a key from ${p.keysUrl})` : ""} where this agent is started, or pick another provider with \`model_provider\` in ${config.file}.`,
    );
  }
  return ok("provider", "Provider", `${detail}${others}`);
}
