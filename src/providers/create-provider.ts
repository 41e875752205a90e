import { createMessagesProvider } from "./anthropic-messages.js";
import { endpointFetch } from "./endpoint-fetch.js";
import type { Wire } from "./model-request.js";
import { createChatProvider } from "./openai-chat.js";
import { loadModules } from "./openai-client.js";
import { createResponsesProvider } from "./openai-responses.js";
import type { ModelEndpoint, Provider } from "./types.js";

/** The provider for the wire the endpoint speaks (`chat` unless configured). */
export function createProvider(endpoint: ModelEndpoint): Provider {
  switch (endpoint.wire ?? "chat") {
    case "chat":
      return createChatProvider(endpoint);
    case "responses":
      return createResponsesProvider(endpoint);
    case "messages":
      return createMessagesProvider(endpoint);
  }
}

/** Imports what a wire's provider needs, so the first prompt does not wait for it. Never rejects. */
export async function preloadWire(wire: Wire): Promise<void> {
  try {
    if (wire === "messages") await Promise.all([import("@anthropic-ai/sdk"), endpointFetch()]);
    else await loadModules();
  } catch {
    // The first request reports a missing package with the endpoint named.
  }
}
