import { Inflate, zipSync } from 'fflate';
import { groupedCount } from '@pipit/protocol';
import { DefinitionError } from '../schema/edit-rules';

/*
 * The zip container of a portable `.pipit` file (docs/product/portable-file.md). fflate writes it.
 * Reading is done here, entry by entry, because a file comes from anyone: fflate's `unzipSync`
 * trusts each entry's declared size (a lying header inflates on past its buffer, costing CPU for
 * every byte it discards), so each entry is inflated in small steps, its output counted against
 * what it declared and against the file's whole budget, and its CRC-32 checked.
 */

/** A file that cannot be read as a Pipit file: what is wrong, in words for the person. */
export class PipitFileError extends DefinitionError {
  constructor(message: string) {
    super(message);
    this.name = 'PipitFileError';
  }
}

export interface ZipLimits {
  /** Entries in the archive. */
  entries: number;
  /** Uncompressed bytes of one entry. */
  entryBytes: number;
  /** Uncompressed bytes of every entry together. */
  totalBytes: number;
}

export interface ZipEntryInput {
  name: string;
  data: Uint8Array;
  /** Images are compressed already: stored as they are. */
  compress: boolean;
}

/** Builds a zip from entries, in their order. */
export function writeZip(entries: ZipEntryInput[], time: Date): Uint8Array {
  // A zip's dates are DOS dates: 1980 to 2099.
  const mtime = new Date(
    Math.min(Math.max(time.getTime(), Date.UTC(1980, 0, 2)), Date.UTC(2099, 11, 30)),
  );
  const files: Record<string, [Uint8Array, { level: 0 | 6; mtime: Date }]> = {};
  for (const entry of entries) {
    files[entry.name] = [entry.data, { level: entry.compress ? 6 : 0, mtime }];
  }
  return zipSync(files);
}

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

function crc32(data: Uint8Array): number {
  let crc = -1;
  for (let i = 0; i < data.length; i++) {
    crc = CRC_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  }
  return (crc ^ -1) >>> 0;
}

interface CentralEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  dataStart: number;
}

/**
 * Inflated this many compressed bytes at a time: DEFLATE expands at most 1,032 times, so one step
 * makes at most ~4 MB before its output is counted.
 */
const INFLATE_STEP_BYTES = 4096;

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) =>
  (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

/**
 * What a file that is not Pipit's says, wherever it is found out: not a zip, not JSON,
 * another zip or another JSON file. `/create` checks a file before sending it and the import
 * endpoint checks it again: a person reads the same words either way.
 */
export const NOT_A_PIPIT_FILE =
  'This file isn’t a Pipit file. Choose a .pipit or .json file exported from Pipit.';
const NOT_A_ZIP = NOT_A_PIPIT_FILE;
const BROKEN = 'This Pipit file is damaged: it could not be read to the end. Export it again.';

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** An entry name of our own kind: relative, ASCII, no `..`, no empty segment. */
const SAFE_NAME = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

function centralDirectory(
  bytes: Uint8Array,
  limits: ZipLimits,
  describe: (name: string) => string,
): CentralEntry[] {
  if (bytes.length < 22) throw new PipitFileError(NOT_A_ZIP);
  // The end record is within the last 64 KiB + 22 bytes (its comment is at most 65,535 bytes).
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 65_557); at--) {
    if (u32(bytes, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new PipitFileError(NOT_A_ZIP);
  const count = u16(bytes, end + 10);
  const directorySize = u32(bytes, end + 12);
  let at = u32(bytes, end + 16);
  if (u16(bytes, end + 4) !== 0 || u16(bytes, end + 8) !== count) {
    throw new PipitFileError('This file is split into parts; Pipit files never are.');
  }
  // ZIP64 marks a file far larger than any Pipit file may be.
  if (count === 0xffff || directorySize === 0xffffffff || at === 0xffffffff) {
    throw new PipitFileError('This file is too large to be a Pipit file.');
  }
  if (count > limits.entries) {
    throw new PipitFileError(
      `This file holds ${groupedCount(count)} files; a Pipit file holds at most ${groupedCount(limits.entries)}.`,
    );
  }
  if (at + directorySize > end) throw new PipitFileError(BROKEN);
  const entries: CentralEntry[] = [];
  let declared = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || u32(bytes, at) !== 0x02014b50) throw new PipitFileError(BROKEN);
    const flags = u16(bytes, at + 8);
    const method = u16(bytes, at + 10);
    const crc = u32(bytes, at + 16);
    const compressedSize = u32(bytes, at + 20);
    const size = u32(bytes, at + 24);
    const nameLength = u16(bytes, at + 28);
    const next = at + 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
    const localHeader = u32(bytes, at + 42);
    if (next > end) throw new PipitFileError(BROKEN);
    let name = '';
    for (let k = at + 46; k < at + 46 + nameLength; k++) name += String.fromCharCode(bytes[k]!);
    at = next;
    if (name.endsWith('/')) continue; // a folder: nothing to read
    if (flags & 1) throw new PipitFileError('This file is encrypted; Pipit files never are.');
    if (method !== 0 && method !== 8) {
      throw new PipitFileError(
        'This file was compressed in a way Pipit does not read. Export it from Pipit again.',
      );
    }
    if (!SAFE_NAME.test(name) || name.length > 255) {
      throw new PipitFileError('This file holds a file name Pipit never writes.');
    }
    if (entries.some((e) => e.name === name)) {
      throw new PipitFileError(`This file holds ${describe(name)} twice; a Pipit file never does.`);
    }
    if (size > limits.entryBytes) {
      throw new PipitFileError(
        `${capital(describe(name))} in this file is larger than ${Math.round(limits.entryBytes / 1024 / 1024)} MB, the most one part may be.`,
      );
    }
    declared += size;
    if (declared > limits.totalBytes) {
      throw new PipitFileError(
        `This file unpacks to more than ${Math.round(limits.totalBytes / 1024 / 1024)} MB, the most a Pipit file may hold.`,
      );
    }
    if (localHeader + 30 > bytes.length || u32(bytes, localHeader) !== 0x04034b50) {
      throw new PipitFileError(BROKEN);
    }
    const dataStart =
      localHeader + 30 + u16(bytes, localHeader + 26) + u16(bytes, localHeader + 28);
    if (dataStart + compressedSize > bytes.length) throw new PipitFileError(BROKEN);
    entries.push({ name, method, crc, compressedSize, size, dataStart });
  }
  return entries;
}

function inflateEntry(bytes: Uint8Array, entry: CentralEntry, what: string): Uint8Array {
  const out = new Uint8Array(entry.size);
  let written = 0;
  let finished = false;
  const inflate = new Inflate((chunk, final) => {
    if (written + chunk.length > entry.size) {
      throw new PipitFileError(
        `${capital(what)} in this file unpacks to more than it says it does. This file is damaged or unsafe.`,
      );
    }
    out.set(chunk, written);
    written += chunk.length;
    if (final) finished = true;
  });
  const end = entry.dataStart + entry.compressedSize;
  try {
    for (let at = entry.dataStart; at < end && !finished; at += INFLATE_STEP_BYTES) {
      const stop = Math.min(end, at + INFLATE_STEP_BYTES);
      inflate.push(bytes.subarray(at, stop), stop === end);
    }
  } catch (error) {
    if (error instanceof PipitFileError) throw error;
    throw new PipitFileError(BROKEN);
  }
  if (!finished || written !== entry.size) throw new PipitFileError(BROKEN);
  return out;
}

export interface ZipReader {
  /** The names of every file in the archive, in its order. */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** A file's bytes, checked against its size and CRC-32; a PipitFileError when it is missing. */
  read(name: string): Uint8Array;
}

/**
 * Opens a zip without unpacking anything yet: its directory is read and checked against `limits`
 * (entries, each entry's size, the total, names, encryption, compression methods). Each `read`
 * unpacks one entry and checks it. `describe` names an entry in a refusal in words a person knows
 * ("the definition of the app “Chores”"), never by its path inside the zip.
 */
export function readZip(
  bytes: Uint8Array,
  limits: ZipLimits,
  describe: (name: string) => string = () => 'a part of this file',
): ZipReader {
  if (u32(bytes, 0) !== 0x04034b50 && u32(bytes, 0) !== 0x06054b50) {
    throw new PipitFileError(NOT_A_ZIP);
  }
  const entries = centralDirectory(bytes, limits, describe);
  const byName = new Map(entries.map((e) => [e.name, e]));
  return {
    names: entries.map((e) => e.name),
    has: (name) => byName.has(name),
    read(name) {
      const entry = byName.get(name);
      if (!entry) {
        throw new PipitFileError(`This Pipit file is missing ${describe(name)}. Export it again.`);
      }
      let data: Uint8Array;
      if (entry.method === 0) {
        if (entry.compressedSize !== entry.size) throw new PipitFileError(BROKEN);
        data = bytes.slice(entry.dataStart, entry.dataStart + entry.size);
      } else {
        data = inflateEntry(bytes, entry, describe(name));
      }
      if (crc32(data) !== entry.crc) throw new PipitFileError(BROKEN);
      return data;
    },
  };
}

/** Whether these bytes start like a zip (a `.pipit` file) rather than text (an old `.json` export). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && u32(bytes, 0) === 0x04034b50;
}
