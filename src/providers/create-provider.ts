import { createMessagesProvider } from "./anthropic-messages.js";
import { createChatProvider } from "./openai-chat.js";
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
