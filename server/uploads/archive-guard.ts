// ZIP archives (docx, xlsx, any zip) checked before a reader unpacks them. mammoth and exceljs read
// through JSZip, which takes the LAST end-of-directory record in the file, the directory it points
// at, and each member's data after its local header; this module reads the same bytes the same
// way, so what it measures is what they would unpack:
//   1. the directory first: members, their declared sizes and ratios against INFLATE_LIMITS, and no
//      two members sharing bytes (overlapping members are how small files unpack many times over);
//   2. then every member inflated with its declared size as the ceiling: a declared size can lie,
//      and the inflater stops at the first chunk past it.
// An archive laid out any other way (ZIP64, data before or between the directory and its end
// record, a directory that does not tile) is refused rather than trusted.
import { AppError } from "../errors/app-error";
import { inflateCapped } from "./inflate-capped";
import { INFLATE_LIMITS, toMegabytes } from "./upload-limits";

const SIG = { local: 0x04034b50, central: 0x02014b50 };
const END_SIGNATURE = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const END_BYTES = 22;
const CENTRAL_BYTES = 46;
const LOCAL_BYTES = 30;
const METHOD = { stored: 0, deflate: 8 };

export type TInflateLimits = { maxBytes: number; maxRatio: number; ratioGraceBytes: number; maxEntries: number };
type TEnd = { at: number; entries: number; dirOffset: number; dirBytes: number; shift: number; zip64: boolean };
type TMember = { name: string; flags: number; method: number; packed: number; size: number; localOffset: number; dataStart: number };

const tooLarge = (limits: TInflateLimits) =>
  new AppError("file_unpacks_too_large", { params: { max_mb: toMegabytes(limits.maxBytes), ratio: limits.maxRatio } });
const unreadable = () => new AppError("file_empty_or_prohibited");

/**
 * Where a ZIP reader would find this file's directory, or null when it would find none. `shift` is
 * how far the directory sits past where the end record says (data put in front of a zip, as in a
 * picture with an archive appended); `zip64` marks the 64-bit layout, which is not followed here.
 */
export function locateZip(bytes: Buffer): TEnd | null {
  const at = bytes.lastIndexOf(END_SIGNATURE);
  if (at < 0 || at + END_BYTES > bytes.length) return null;
  const entries = bytes.readUInt16LE(at + 10);
  const dirBytes = bytes.readUInt32LE(at + 12);
  const dirOffset = bytes.readUInt32LE(at + 16);
  const zip64 = [4, 6, 8, 10].some((o) => bytes.readUInt16LE(at + o) === 0xffff) || dirBytes === 0xffffffff || dirOffset === 0xffffffff;
  if (zip64) return { at, entries, dirOffset, dirBytes, shift: 0, zip64 };
  const shift = at - (dirOffset + dirBytes);
  if (shift < 0) return null;
  const first = dirOffset + shift;
  const holdsDirectory = entries === 0 ? dirBytes === 0 : first + 4 <= bytes.length && bytes.readUInt32LE(first) === SIG.central;
  return holdsDirectory ? { at, entries, dirOffset, dirBytes, shift, zip64 } : null;
}

/** The members as the directory lists them, each with where its data starts; throws when the layout is not plain. */
function readMembers(bytes: Buffer, end: TEnd, limits: TInflateLimits): TMember[] {
  if (end.zip64 || end.shift !== 0) throw unreadable();
  if (end.entries > limits.maxEntries) throw tooLarge(limits);
  const members: TMember[] = [];
  let pos = end.dirOffset;
  while (pos < end.at) {
    if (pos + CENTRAL_BYTES > end.at || bytes.readUInt32LE(pos) !== SIG.central) throw unreadable();
    if (members.length >= limits.maxEntries) throw tooLarge(limits);
    const nameBytes = bytes.readUInt16LE(pos + 28);
    const member = {
      name: bytes.subarray(pos + CENTRAL_BYTES, pos + CENTRAL_BYTES + nameBytes).toString("utf8"),
      flags: bytes.readUInt16LE(pos + 8),
      method: bytes.readUInt16LE(pos + 10),
      packed: bytes.readUInt32LE(pos + 20),
      size: bytes.readUInt32LE(pos + 24),
      localOffset: bytes.readUInt32LE(pos + 42),
      dataStart: 0,
    };
    pos += CENTRAL_BYTES + nameBytes + bytes.readUInt16LE(pos + 30) + bytes.readUInt16LE(pos + 32);
    members.push(member);
  }
  if (pos !== end.at || members.length !== end.entries) throw unreadable();
  for (const m of members) {
    const local = m.localOffset;
    if (local + LOCAL_BYTES > end.dirOffset || bytes.readUInt32LE(local) !== SIG.local) throw unreadable();
    m.dataStart = local + LOCAL_BYTES + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    if (m.dataStart + m.packed > end.dirOffset) throw unreadable();
  }
  return members;
}

const overRatio = (unpacked: number, packed: number, limits: TInflateLimits) =>
  unpacked > limits.ratioGraceBytes && unpacked > Math.max(1, packed) * limits.maxRatio;

/** The declared sizes, before a byte is inflated: each member's and the whole archive's. */
function checkDeclared(members: TMember[], archiveBytes: number, limits: TInflateLimits) {
  let total = 0;
  for (const m of members) {
    total += m.size;
    if (m.size > limits.maxBytes || total > limits.maxBytes || overRatio(m.size, m.packed, limits)) throw tooLarge(limits);
  }
  if (overRatio(total, archiveBytes, limits)) throw tooLarge(limits);
  // Members sharing bytes: each would unpack the same data again.
  const spans = members.map((m) => [m.localOffset, m.dataStart + m.packed]).sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) throw tooLarge(limits);
}

/**
 * Refuses a ZIP that would unpack past the limits, by its directory and then by its actual bytes.
 * Bytes with no ZIP directory a reader would find pass: no ZIP reader opens them.
 */
export async function inspectArchive(bytes: Buffer, limits: TInflateLimits = INFLATE_LIMITS) {
  const end = locateZip(bytes);
  if (!end) return;
  const members = readMembers(bytes, end, limits);
  checkDeclared(members, bytes.length, limits);
  for (const m of members) {
    // Encrypted members and other methods are not unpacked by JSZip either: nothing to measure.
    if (m.flags & 1 || m.method !== METHOD.deflate) continue;
    const outcome = await inflateCapped(bytes.subarray(m.dataStart, m.dataStart + m.packed), { format: "raw", cap: m.size });
    if (outcome.exceeded) throw tooLarge(limits);
    if (outcome.failed) throw unreadable();
  }
}
