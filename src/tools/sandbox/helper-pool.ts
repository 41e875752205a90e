import { type ConfinedHelper, type ConfinedHelperOptions, startConfinedHelper } from "./confined-helper.js";

export interface HelperPool {
  /**
   * The confined helper for `flags` (the whole sandbox but the cwd), started on first use. A
   * session that asks for other flags (its mode or roots changed, a `.git` appeared) leaves its
   * previous helper, which stops once no session uses it and its commands are done.
   */
  helper(flags: string[], session: string): ConfinedHelper;
  /** The session closed: its helper stops unless another session uses it. */
  release(session: string): void;
  dispose(): void;
}

/** One confined helper per distinct sandbox, shared by the sessions that have that sandbox. */
export function createHelperPool(options: Omit<ConfinedHelperOptions, "flags">): HelperPool {
  const helpers = new Map<string, { helper: ConfinedHelper; sessions: Set<string> }>();
  const keyOf = new Map<string, string>();

  const leave = (session: string) => {
    const key = keyOf.get(session);
    if (key === undefined) return;
    keyOf.delete(session);
    const entry = helpers.get(key);
    entry?.sessions.delete(session);
    if (entry && entry.sessions.size === 0) {
      helpers.delete(key);
      entry.helper.retire();
    }
  };

  return {
    helper(flags, session) {
      const key = JSON.stringify(flags);
      if (keyOf.get(session) !== key) leave(session);
      let entry = helpers.get(key);
      if (!entry) {
        entry = { helper: startConfinedHelper({ ...options, flags }), sessions: new Set() };
        helpers.set(key, entry);
      }
      entry.sessions.add(session);
      keyOf.set(session, key);
      return entry.helper;
    },
    release: leave,
    dispose() {
      for (const { helper } of helpers.values()) helper.dispose();
      helpers.clear();
      keyOf.clear();
    },
  };
}
