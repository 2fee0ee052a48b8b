import { afterEach, describe, expect, it } from "vitest";
import { retrievePassages, setTurnDependencies, turnDependencies, type TRetrievalQuery } from "./dependencies";

const query: TRetrievalQuery = { accountId: "a", agentId: "g", agentVersionId: "v", trainingSetIds: ["set"], query: "office cat", limit: 2 };

afterEach(() => setTurnDependencies(null));

describe("the turn's dependencies", () => {
  it("fail loudly in a process that did not wire them, rather than answering without training sets", async () => {
    expect(() => turnDependencies()).toThrow(/not wired/);
    await expect(retrievePassages(query)).rejects.toThrow(/not wired/);
  });

  it("ask nothing for an agent without training sets or an empty question", async () => {
    await expect(retrievePassages({ ...query, trainingSetIds: [] })).resolves.toEqual([]);
    await expect(retrievePassages({ ...query, query: "  " })).resolves.toEqual([]);
  });

  it("retrieve through what was wired, at most the limit", async () => {
    const asked: TRetrievalQuery[] = [];
    const passage = (id: string) => ({ id, title: id, text: `text ${id}` });
    setTurnDependencies({
      retrieve: async (q) => (asked.push(q), [passage("1"), passage("2"), passage("3")]),
      trainingSetTools: () => [],
      offlineReply: () => null,
    });
    expect((await retrievePassages(query)).map((p) => p.id)).toEqual(["1", "2"]);
    expect(asked).toEqual([query]);
  });
});
