import { parentProcs } from "../exec/spawner/start-child.js";
import { findHostSpare, type HostSpare, isHostSpare, placeHostSpare } from "./host-spare.js";
import type { PidsCgroup } from "./pids-cgroup.js";

/**
 * The next commands' pids cgroups, made ahead of time, each with one of the confined helper's
 * waiting spare shells already inside it. Moving a process into a cgroup is cheap while cgroups
 * are busy, but the first move after a quiet moment waits for an RCU grace period
 * (docs/performance.md has the figures): a model's pause is such a moment. Moved while the
 * session waits for the model, a spare costs the command nothing: the command gets the group
 * it is already in. The helper keeps two spares, so a command that comes sooner than a fresh
 * spare's move ends still finds one placed.
 */
export interface SpareGroups {
  /**
   * The helper (its host pid, once known) announced a spare by its pid inside the sandbox: make
   * a group and move the spare in.
   */
  prepare(helper: Promise<number | undefined>, inner: number): Promise<void>;
  /**
   * The oldest group holding a spare, for the next command; undefined when there is none. With
   * none placed yet, a move in flight is waited for: it holds the cgroup lock, which making
   * another group would wait for just as long, and the command then needs no fork of the helper.
   * A spare that died waiting is found out by `spareIn`.
   */
  claim(): Promise<PidsCgroup | undefined>;
  /**
   * For a command about to be sent: the spare's pid inside when `procs` is a claimed group and
   * the spare is still the process moved into it, else undefined (then the helper must be moved
   * in, to fork the command there).
   */
  spareIn(procs: string, helper: number): number | undefined;
  /** The helper is gone or replaced: drop what was prepared for it. */
  clear(): void;
}

export function createSpareGroups(makeCgroup: () => Promise<PidsCgroup | undefined>): SpareGroups {
  // Oldest first: each holds a spare the helper still keeps waiting.
  const ready: Placed[] = [];
  const claimed = new Map<string, HostSpare>();
  const pending = new Set<Promise<void>>();
  let generation = 0;

  return {
    prepare(helperPid, inner) {
      const mine = generation;
      const placing = (async () => {
        const helper = await helperPid;
        const spare = helper === undefined ? undefined : findHostSpare(helper, inner);
        const cgroup = spare && (await makeCgroup());
        if (helper === undefined || !spare || !cgroup) return;
        const home = parentProcs(cgroup.procs); // the helper's own group, where the spare was born
        const placed = await placeHostSpare(spare, { helper, procs: cgroup.procs, home });
        if (placed && mine === generation) ready.push({ spare, cgroup });
        else cgroup.release();
      })();
      pending.add(placing);
      void placing.finally(() => pending.delete(placing));
      return placing;
    },
    async claim() {
      while (ready.length === 0 && pending.size > 0) await Promise.race(pending).catch(() => {});
      const taken = ready.shift();
      if (taken) claimed.set(taken.cgroup.procs, taken.spare);
      return taken?.cgroup;
    },
    spareIn(procs, helper) {
      const spare = claimed.get(procs);
      claimed.delete(procs);
      return spare && isHostSpare(spare, helper) ? spare.inner : undefined;
    },
    clear() {
      generation++;
      for (const { cgroup } of ready.splice(0)) cgroup.release();
      claimed.clear();
    },
  };
}

interface Placed {
  spare: HostSpare;
  cgroup: PidsCgroup;
}
