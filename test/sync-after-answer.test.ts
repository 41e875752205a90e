import { describe, expect, it } from "vitest";
import { syncAfterAnswer } from "../src/sessions/sync-after-answer.js";
import type { Store } from "../src/store/types.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("syncAfterAnswer", () => {
  it("syncs after the current turn of the event loop, not before the answer", async () => {
    let syncs = 0;
    const warnings: string[] = [];
    syncAfterAnswer({ sync: () => syncs++ } as unknown as Store, (text) => warnings.push(text));
    expect(syncs).toBe(0);
    await tick();
    expect(syncs).toBe(1);
    expect(warnings).toEqual([]);
  });

  it("turns a failed fsync into a warning, and throws nothing even when the warning fails too", async () => {
    const failing = {
      sync: () => {
        throw new Error("disk I/O error");
      },
    } as unknown as Store;
    const warnings: string[] = [];
    syncAfterAnswer(failing, (text) => warnings.push(text));
    syncAfterAnswer(failing, () => {
      throw new Error("database is locked");
    });
    await tick();
    expect(warnings).toEqual(["This turn could not be flushed to disk: disk I/O error"]);
  });
});
