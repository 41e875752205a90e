const MAX_MESSAGE_CHARS = 300;

/**
 * The human part of an error body, short enough for an editor notification. Servers disagree on
 * the shape: OpenAI `{error:{message}}`, vLLM `{message}`, FastAPI `{detail}` (string or a list of
 * `{msg}`), Ollama `{error:"..."}`, and proxies answer with HTML or plain text.
 */
export function serverMessage(body: string): string {
  const text = body.trim();
  if (!text) return "";
  const fromJson = messageFromJson(text);
  if (fromJson !== undefined) return shorten(fromJson);
  if (/^<(!doctype|html|head|body|\?xml)/i.test(text) || /<\/(html|body|title|h1)>/i.test(text)) {
    return shorten(htmlText(text));
  }
  return shorten(text);
}

function messageFromJson(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return pickMessage(value) ?? (typeof value === "object" ? JSON.stringify(value) : String(value));
}

function pickMessage(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    const parts = value.map(pickMessage).filter((part): part is string => Boolean(part));
    return parts.length > 0 ? parts.join("; ") : undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ["error", "message", "detail", "msg"]) {
    const found = pickMessage(record[key]);
    if (found) return found;
  }
  return undefined;
}

function htmlText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  const picked = title ?? heading ?? html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ");
  const plain = picked.replace(/<[^>]*>/g, " ").replace(/&nbsp;/g, " ");
  return `${plain.replace(/\s+/g, " ").trim()} (HTML page)`;
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_MESSAGE_CHARS ? `${flat.slice(0, MAX_MESSAGE_CHARS)}…` : flat;
}
