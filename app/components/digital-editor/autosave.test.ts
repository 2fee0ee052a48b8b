import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAutosave, type TSaveState } from "./autosave";

type TPatch = { script: string; orientation: string; placement: { x: number } };

function harness(failTimes = 0) {
  const saved: Array<Partial<TPatch>> = [];
  const states: TSaveState[] = [];
  let failures = failTimes;
  let release: (() => void) | null = null;
  let hold = false;
  const autosave = createAutosave<TPatch>({
    delayMs: 800,
    onState: (s) => states.push(s),
    save: async (patch) => {
      if (hold) await new Promise<void>((r) => (release = r));
      if (failures-- > 0) throw new Error("offline");
      saved.push(patch);
    },
  });
  return { autosave, saved, states, holdNext: () => (hold = true), release: () => ((hold = false), release?.()) };
}

describe("autosave", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("gathers changes made in quick succession into one save, after the pause", async () => {
    const h = harness();
    h.autosave.queue({ script: "a" });
    await vi.advanceTimersByTimeAsync(500);
    h.autosave.queue({ script: "ab", orientation: "horizontal" });
    await vi.advanceTimersByTimeAsync(500);
    expect(h.saved).toEqual([]);
    expect(h.autosave.state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(400);
    expect(h.saved).toEqual([{ script: "ab", orientation: "horizontal" }]);
    expect(h.autosave.state()).toBe("saved");
  });

  it("saves at once when flushed, and answers whether all is saved", async () => {
    const h = harness();
    h.autosave.queue({ placement: { x: 0.3 } });
    await expect(h.autosave.flush()).resolves.toBe(true);
    expect(h.saved).toEqual([{ placement: { x: 0.3 } }]);
    await expect(h.autosave.flush()).resolves.toBe(true);
    expect(h.saved).toHaveLength(1);
  });

  it("keeps a failed save's changes under newer ones for the next try", async () => {
    const h = harness(1);
    h.autosave.queue({ script: "old", orientation: "vertical" });
    await expect(h.autosave.flush()).resolves.toBe(false);
    expect(h.autosave.state()).toBe("failed");
    h.autosave.queue({ script: "new" });
    await expect(h.autosave.flush()).resolves.toBe(true);
    expect(h.saved).toEqual([{ script: "new", orientation: "vertical" }]);
  });

  it("runs one save at a time: changes made during a save go in the next", async () => {
    const h = harness();
    h.holdNext();
    h.autosave.queue({ script: "first" });
    const first = h.autosave.flush();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.autosave.state()).toBe("saving");
    h.autosave.queue({ script: "second" });
    const second = h.autosave.flush();
    h.release();
    await expect(first).resolves.toBe(true);
    await expect(second).resolves.toBe(true);
    expect(h.saved).toEqual([{ script: "first" }, { script: "second" }]);
    expect(h.autosave.state()).toBe("saved");
  });
});
