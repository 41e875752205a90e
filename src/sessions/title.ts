import type { ContentBlock } from "../store/events.js";
import type { SessionRecord, Store } from "../store/types.js";
import type { SessionOutput } from "./types.js";

const MAX = 60;

/** A session as titling needs it: its record, and the way to the editor. */
type Titled = { record: SessionRecord; send(output: SessionOutput): void };

/** A short session title from the first prompt: its first line, cut at a word boundary. */
export function titleFrom(content: ContentBlock[]): string | undefined {
  const text = content.find((b) => b.type === "text" && typeof b.text === "string")?.text as
    | string
    | undefined;
  const line = text
    ?.split("\n")
    .map((l) => l.trim())
    .find((l) => l.length > 0)
    ?.replace(/\s+/g, " ");
  if (!line) return undefined;
  if (line.length <= MAX) return line;
  const cut = line.slice(0, MAX - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Names an untitled session after its first prompt and tells the editor. */
export function titleOnce(o: { session: Titled; content: ContentBlock[]; store: Store }): void {
  const title = o.session.record.title ? undefined : titleFrom(o.content);
  if (title) applyTitle(o.session, o.store, title);
}

/** A title the user chose (`session/set_title`, `/rename`); returns why not when it is empty. */
export function setTitle(o: { session: Titled; title: string; store: Store }): string | undefined {
  const title = o.title.replace(/\s+/g, " ").trim();
  if (!title) return "a title needs at least one character that is not a space";
  applyTitle(o.session, o.store, title);
  return undefined;
}

/** Stores the title and tells the editor, with the time the store gave the change. */
function applyTitle(session: Titled, store: Store, title: string): void {
  session.record = store.updateSession(session.record.id, { title });
  session.send({ type: "title", title, updatedAt: session.record.updatedAt });
}
