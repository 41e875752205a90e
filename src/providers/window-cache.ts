import type { ServedWindow } from "./served-window.js";

export interface WindowCache {
  /**
   * What the server says of `model`'s window. Probed once per model, and joined while under
   * way; an `assumed` answer (nothing loaded yet) is asked again at the next call after it
   * arrived, since the first request loads the model. Never rejects.
   */
  learn(model: string): Promise<ServedWindow | undefined>;
}

/** The served windows of one provider's models, for the lifetime of one runtime. */
export function createWindowCache(options: {
  probe(model: string): Promise<ServedWindow | undefined>;
}): WindowCache {
  const known = new Map<
    string,
    { answer: Promise<ServedWindow | undefined>; settled?: ServedWindow | null }
  >();
  return {
    learn(model) {
      const entry = known.get(model);
      if (entry && !entry.settled?.assumed) return entry.answer;
      const fresh: { answer: Promise<ServedWindow | undefined>; settled?: ServedWindow | null } = {
        answer: options.probe(model).then(
          (served) => {
            fresh.settled = served ?? null;
            return served;
          },
          () => {
            fresh.settled = null;
            return undefined;
          },
        ),
      };
      known.set(model, fresh);
      return fresh.answer;
    },
  };
}
