import type { ModelEndpoint, Provider } from "./types.js";

/** Placeholder until the Anthropic Messages provider lands (another branch replaces this file). */
export function createMessagesProvider(endpoint: ModelEndpoint): Provider {
  throw new Error(`${endpoint.providerId}: the Anthropic Messages wire is not built yet`);
}
