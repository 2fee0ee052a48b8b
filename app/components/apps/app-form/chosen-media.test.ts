import { describe, expect, it } from "vitest";
import { readChosenMedia } from "./chosen-media";

const me = "cm1owner000000000000000";
const query = (q: Record<string, string>) => new URLSearchParams(q);
const own = `/files/media/${me}/generated/lq3x9abcdefgh.png`;

describe("the app editor's chosen library picture", () => {
  it("reads nothing from a query without media", () => {
    expect(readChosenMedia(query({ id: "app1" }), me)).toBeNull();
  });

  it("sets one of the account's own pictures as the background unless the icon is asked for", () => {
    expect(readChosenMedia(query({ media_id: "m1", media_url: own }), me)).toEqual({ slot: "background", url: own });
    expect(readChosenMedia(query({ media_id: "m1", media_url: own, media_slot: "icon" }), me)).toEqual({ slot: "icon", url: own });
    expect(readChosenMedia(query({ media_id: "m1", media_url: own, media_slot: "menu" }), me)).toEqual({ slot: "background", url: own });
    const uploaded = `/files/media/${me}/lq3x9abcdefgh.JPG`;
    expect(readChosenMedia(query({ media_id: "m1", media_url: uploaded }), me)).toEqual({ slot: "background", url: uploaded });
  });

  it("refuses a video: no app type has a video field", () => {
    for (const ext of ["mp4", "MOV", "webm"])
      expect(readChosenMedia(query({ media_id: "m1", media_url: `/files/media/${me}/generated/a.${ext}` }), me)).toEqual({ refused: "video" });
  });

  it("refuses anything that is not the account's own library file of this site", () => {
    const bad = [
      `/files/media/someone-else/generated/a.png`,
      `/files/media/${me}x/a.png`,
      `/files/media/${me}/../someone-else/a.png`,
      `/files/media/${me}/%2e%2e/someone-else/a.png`,
      `/files/media/${me}/a\\..\\b.png`,
      `/files/avatars/${me}/a.png`,
      `https://evil.example/files/media/${me}/a.png`,
      `//evil.example/files/media/${me}/a.png`,
      `javascript:alert(1)//files/media/${me}/a.png`,
      `/files/media/${me}/a.svg`,
      `/files/media/${me}/`,
      "",
    ];
    for (const url of bad) expect(readChosenMedia(query({ media_id: "m1", media_url: url }), me), url).toEqual({ refused: "not_own" });
    expect(readChosenMedia(query({ media_url: own }), me)).toEqual({ refused: "not_own" });
    expect(readChosenMedia(query({ media_id: "m1", media_url: own }), "")).toEqual({ refused: "not_own" });
  });
});
