import type { SessionRecord, Store } from "../../store/types.js";

export type Resolved = { session: SessionRecord } | { error: string };

/**
 * Finds a session by its id or by a unique prefix of it, as git does with commits. An ambiguous
 * prefix names the candidates (with titles) so the user can type a longer one.
 */
export function resolveSessionId(
  store: Pick<Store, "getSession" | "sessionIdsByPrefix">,
  id: string,
): Resolved {
  const wanted = id.trim();
  if (!wanted) return { error: "missing session id (see `interpreter sessions` for the list)" };
  const exact = store.getSession(wanted);
  if (exact) return { session: exact };
  const candidates = store.sessionIdsByPrefix(wanted, 11);
  if (candidates.length === 1) {
    const session = store.getSession(candidates[0] as string);
    if (session) return { session };
  }
  if (candidates.length === 0) {
    return { error: `no session matches '${wanted}' (see \`interpreter sessions\` for the list)` };
  }
  const shown = candidates.slice(0, 10).map((candidate) => {
    const title = store.getSession(candidate)?.title;
    return `  ${candidate}${title ? `  ${title}` : ""}`;
  });
  const more = candidates.length > 10 ? "\n  ..." : "";
  return {
    error: `session id '${wanted}' is ambiguous; it matches:\n${shown.join("\n")}${more}\nType more characters of the id.`,
  };
}
