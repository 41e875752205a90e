import { createToolCallAssembler } from "./assemble-tool-calls.js";
import { readChunk } from "./read-chunk.js";
import type { StreamReader } from "./sdk-attempt.js";
import type { ProviderEvent, Usage } from "./types.js";

/**
 * Reads `chat.completion.chunk`s loosely (readChunk): text and reasoning as they arrive, tool
 * calls assembled from fragments and returned only with the whole answer.
 */
export function chatReader(newId: () => string): StreamReader<unknown> {
  const assembler = createToolCallAssembler({ newId });
  let chunks = 0;
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  return {
    read(chunk) {
      chunks++;
      const parts = readChunk(chunk);
      for (const delta of parts.toolCalls) assembler.add(delta);
      if (parts.usage) usage = parts.usage;
      if (parts.finishReason) finishReason = parts.finishReason;
      const show: ProviderEvent[] = [];
      if (parts.reasoning) show.push({ type: "reasoning", text: parts.reasoning });
      if (parts.text) show.push({ type: "text", text: parts.text });
      return { show };
    },
    ending: () => finishReason !== undefined,
    complete(contentType) {
      if (chunks === 0)
        return {
          kind: "failed",
          failure: { kind: "protocol", detail: `no stream chunks (content-type ${contentType})` },
          emitted: false,
        };
      return {
        kind: "complete",
        calls: assembler.calls(),
        ...(usage ? { usage } : {}),
        ...(finishReason ? { finishReason } : {}),
      };
    },
  };
}
