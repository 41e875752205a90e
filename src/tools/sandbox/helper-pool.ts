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

export interface HelperPoolOptions extends Omit<ConfinedHelperOptions, "flags"> {
  /**
   * A helper no command asked for in this long stops (once its commands are done): each one
   * holds a node process, and a daemon keeps many sessions open that nobody is typing in.
   */
  idleMs: number;
}

/**
 * One confined helper per session and sandbox. Never shared between sessions: commands in one
 * helper share a pid namespace, a `/tmp` and a home, which only one session's commands may.
 */
export function createHelperPool(options: HelperPoolOptions): HelperPool {
  const { idleMs, ...helperOptions } = options;
  const helpers = new Map<string, { key: string; helper: ConfinedHelper; idle: NodeJS.Timeout }>();

  const release = (session: string) => {
    const entry = helpers.get(session);
    if (!entry) return;
    clearTimeout(entry.idle);
    entry.helper.retire();
    helpers.delete(session);
  };
  const idleTimer = (session: string) => setTimeout(() => release(session), idleMs).unref();

  return {
    helper(flags, session) {
      const key = JSON.stringify(flags);
      const current = helpers.get(session);
      if (current?.key === key) {
        current.idle.refresh();
        return current.helper;
      }
      release(session);
      const helper = startConfinedHelper({ ...helperOptions, flags });
      helpers.set(session, { key, helper, idle: idleTimer(session) });
      return helper;
    },
    release,
    dispose() {
      for (const { helper, idle } of helpers.values()) {
        clearTimeout(idle);
        helper.dispose();
      }
      helpers.clear();
    },
  };
}
