import { parentProcs } from "../exec/spawner/start-child.js";
import { findHostSpare, type HostSpare, isHostSpare, placeHostSpare } from "./host-spare.js";
import type { PidsCgroup } from "./pids-cgroup.js";

/**
 * The next command's pids cgroup, made ahead of time with the confined helper's waiting spare
 * shell already inside it. Moving a process into a cgroup is cheap while cgroups are busy, but
 * the first move after a quiet moment waits for an RCU grace period (docs/performance.md has
 * the figures): a model's pause is such a moment. Moved while the session waits for
 * the model, the spare costs the command nothing: the command gets the group it is already in.
 */
export interface SpareGroups {
  /**
   * The helper (its host pid, once known) announced a spare by its pid inside the sandbox: make
   * a group and move the spare in.
   */
  prepare(helper: Promise<number | undefined>, inner: number): Promise<void>;
  /**
   * The group holding the spare, for the next command; undefined when none is ready. A move in
   * flight is waited for: it holds the cgroup lock, which making another group would wait for
   * just as long, and the command then needs no fork of the helper.
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

export function createSpareGroups(makeCgroup: () => PidsCgroup | undefined): SpareGroups {
  let ready: { spare: HostSpare; cgroup: PidsCgroup } | undefined;
  const claimed = new Map<string, HostSpare>();
  let generation = 0;
  let pending: Promise<void> | undefined;

  const drop = () => {
    ready?.cgroup.release();
    ready = undefined;
  };

  return {
    prepare(helperPid, inner) {
      const mine = ++generation;
      drop(); // a new spare: the previous one is gone
      const placing = (async () => {
        const helper = await helperPid;
        const spare = helper === undefined ? undefined : findHostSpare(helper, inner);
        const cgroup = spare && makeCgroup();
        if (helper === undefined || !spare || !cgroup) return;
        const home = parentProcs(cgroup.procs); // the helper's own group, where the spare was born
        const placed = await placeHostSpare(spare, { helper, procs: cgroup.procs, home });
        if (placed && mine === generation) ready = { spare, cgroup };
        else cgroup.release();
      })();
      pending = placing;
      void placing.finally(() => {
        if (pending === placing) pending = undefined;
      });
      return placing;
    },
    async claim() {
      if (pending) await pending;
      const taken = ready;
      ready = undefined;
      if (!taken) return undefined;
      claimed.set(taken.cgroup.procs, taken.spare);
      return taken.cgroup;
    },
    spareIn(procs, helper) {
      const spare = claimed.get(procs);
      claimed.delete(procs);
      return spare && isHostSpare(spare, helper) ? spare.inner : undefined;
    },
    clear() {
      generation++;
      drop();
      claimed.clear();
    },
  };
}
