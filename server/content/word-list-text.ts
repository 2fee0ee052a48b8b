// Word lists as text, one word per line: the shipped default list and the files administrators
// import. "## name" starts a category; other lines starting with "#" are comments.
import fs from "node:fs";
import path from "node:path";

export type TListedWord = { word: string; category: string | null };

export function parseWordList(text: string): TListedWord[] {
  const words: TListedWord[] = [];
  let category: string | null = null;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (line.startsWith("##")) category = line.slice(2).trim() || null;
    else if (line && !line.startsWith("#")) words.push({ word: line, category });
  }
  return words;
}

// Two folders below the root both from the sources (server/content) and from the built server
// (build/server), where the pages' loaders run this module.
const DEFAULT_LIST_FILE = path.resolve(import.meta.dirname, "../../server/content/default-sensitive-words.txt");
let defaults: TListedWord[] | undefined;

/** The list every install starts with, read once per process. */
export function getDefaultWords(): TListedWord[] {
  defaults ??= parseWordList(fs.readFileSync(DEFAULT_LIST_FILE, "utf8"));
  return defaults;
}
