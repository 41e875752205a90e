import { type ConfinedHelper, type ConfinedHelperOptions, startConfinedHelper } from "./confined-helper.js";

export interface HelperPool {
  /**
   * The session's confined helper for `flags` (the whole sandbox but the cwd), started on first
   * use. When the session asks for other flags (its mode or roots changed, a `.git` appeared),
   * its previous helper stops once the commands running in it are done.
   */
  helper(flags: string[], session: string): ConfinedHelper;
  /** The session closed: its helper stops once its commands are done. */
  release(session: string): void;
  dispose(): void;
}

/**
 * One confined helper per session and sandbox. Never shared between sessions: commands in one
 * helper share a pid namespace, a `/tmp` and a home, which only one session's commands may.
 */
export function createHelperPool(options: Omit<ConfinedHelperOptions, "flags">): HelperPool {
  const helpers = new Map<string, { key: string; helper: ConfinedHelper }>();

  const release = (session: string) => {
    helpers.get(session)?.helper.retire();
    helpers.delete(session);
  };

  return {
    helper(flags, session) {
      const key = JSON.stringify(flags);
      const current = helpers.get(session);
      if (current?.key === key) return current.helper;
      release(session);
      const helper = startConfinedHelper({ ...options, flags });
      helpers.set(session, { key, helper });
      return helper;
    },
    release,
    dispose() {
      for (const { helper } of helpers.values()) helper.dispose();
      helpers.clear();
    },
  };
}
