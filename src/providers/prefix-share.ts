/** The parts of a chat request the model reads (a `ChatRequest` or a request body as sent). */
export interface PromptParts {
  messages: unknown[];
  tools?: unknown[];
}

/**
 * A request as the model reads it, serialised: the tool list first (chat templates put tool
 * definitions in the system area, ahead of the conversation), then each message. Body knobs
 * (`max_tokens`, `prompt_cache_key`, ...) are not part of the prompt and are left out.
 */
export function promptBytes(request: PromptParts): Buffer {
  return Buffer.from(JSON.stringify([request.tools ?? [], ...request.messages]), "utf8");
}

/** Length of the longest common byte prefix of `a` and `b`. */
export function commonPrefix(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export interface PrefixShare {
  /** For each request but the last: the share of its bytes the next request repeats as a prefix. */
  perRequest: number[];
  /** Repeated prefix bytes over all bytes of those requests (1 when there is no pair). */
  overall: number;
}

/**
 * How cacheable consecutive requests of a session are: a prompt cache can reuse the part of a
 * request that the next request starts with byte for byte. A session whose system prompt, tools
 * and rendered history stay stable scores close to 1; the closing `]` of the message list never
 * matches, so a perfect session is a few bytes short of 1.
 */
export function prefixShare(requests: PromptParts[]): PrefixShare {
  const bytes = requests.map(promptBytes);
  const perRequest: number[] = [];
  let shared = 0;
  let total = 0;
  for (let i = 0; i + 1 < bytes.length; i++) {
    const current = bytes[i]!;
    const same = commonPrefix(current, bytes[i + 1]!);
    perRequest.push(current.length === 0 ? 1 : same / current.length);
    shared += same;
    total += current.length;
  }
  return { perRequest, overall: total === 0 ? 1 : shared / total };
}
