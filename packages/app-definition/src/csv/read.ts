import Papa from 'papaparse';
import { groupedCount } from '@pipit/protocol';
import { CSV_LIMITS } from './limits';
import { unprotectCell } from './write';

/*
 * Reading a CSV file: its bytes as text (UTF-8, or Windows-1252 when the person asks), then rows
 * with Papa Parse, which handles quotes, line breaks inside cells, `\r\n` and the delimiter a
 * spreadsheet chose (comma, semicolon, tab). Every problem is a message in the person's words; a
 * file that cannot be read at all changes nothing, and a row that cannot be read is reported by
 * its number so the person can fix or skip it.
 */

/** How a file's bytes are read: UTF-8 (what "CSV UTF-8" saves), or Windows' Western European. */
export type CsvEncoding = 'utf-8' | 'windows-1252';

export type DecodedCsv =
  | { ok: true; text: string }
  /** `notUtf8`: reading it as Windows-1252 may work (offer it). */
  | { ok: false; message: string; notUtf8?: boolean };

/** TextDecoder, which every browser and Node have (this package's types name no platform). */
interface Decoder {
  decode(bytes: Uint8Array): string;
}
type DecoderClass = new (label: string, options?: { fatal?: boolean }) => Decoder;
const TextDecoderClass = (globalThis as unknown as { TextDecoder: DecoderClass }).TextDecoder;

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;

export const EMPTY_FILE_MESSAGE =
  'This file is empty. Choose a CSV file with a row of column names and at least one row below it.';

/**
 * The file's text. UTF-8 is read strictly (a byte that isn't UTF-8 is an error, not a silent
 * replacement character); a UTF-8 byte-order mark is dropped. Windows-1252 reads any bytes.
 */
export function decodeCsv(bytes: Uint8Array, encoding: CsvEncoding = 'utf-8'): DecodedCsv {
  if (bytes.byteLength > CSV_LIMITS.fileBytes) {
    return {
      ok: false,
      message: `This file is ${megabytes(bytes.byteLength)}; a CSV file can be at most ${megabytes(CSV_LIMITS.fileBytes)}. Split it into smaller files.`,
    };
  }
  if (bytes.byteLength === 0) return { ok: false, message: EMPTY_FILE_MESSAGE };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return {
      ok: false,
      message:
        'This file is saved as UTF-16 text, which can’t be read here. Save it again as “CSV UTF-8” and choose it again.',
    };
  }
  let text: string;
  try {
    // A fatal decoder refuses bytes that aren't UTF-8; by default it also drops a leading BOM.
    text = new TextDecoderClass(encoding, { fatal: encoding === 'utf-8' }).decode(bytes);
  } catch {
    return {
      ok: false,
      notUtf8: true,
      message:
        'This file isn’t UTF-8 text, so some of its letters can’t be read safely. Save it again as “CSV UTF-8”, or read it as Windows (Western European) text.',
    };
  }
  if (text.includes('\u0000')) {
    return {
      ok: false,
      message:
        'This doesn’t look like a CSV file (it may be a spreadsheet or another kind of file). Save it as CSV from your spreadsheet and choose it again.',
    };
  }
  return { ok: true, text: text.replace(/^\uFEFF/, '') };
}

/** One row under the header, with its cells in the header's order. */
export interface CsvRow {
  /** Its number as a spreadsheet shows it: the header is row 1 (blank lines are not counted). */
  number: number;
  cells: string[];
  /** Why the row cannot be read as it is (its cells don't match the header), if so. */
  problem?: string;
}

export interface CsvTable {
  /** The column names, trimmed. */
  header: string[];
  rows: CsvRow[];
}

export type ParsedCsv = { ok: true; table: CsvTable } | { ok: false; message: string };

const LOOKS_LIKE_A_VALUE = /^(?:[+-]?[\d.,]+%?|\d{4}-\d{2}-\d{2}.*|true|false|yes|no)$/i;

function headerProblem(header: string[]): string | null {
  if (header.length > CSV_LIMITS.columns) {
    return `This file has ${header.length} columns; a collection can have at most ${CSV_LIMITS.columns} fields. Delete the columns you don’t need and choose it again.`;
  }
  const named = header.filter((name) => name !== '');
  if (named.length === 0) {
    return 'The first row is empty. It should name the columns (like Name, Price, Date): add a row of column names at the top.';
  }
  if (named.every((name) => LOOKS_LIKE_A_VALUE.test(name))) {
    return `The first row looks like data (“${named[0]!.slice(0, 40)}”), not column names. Add a row of column names at the top, like Name, Price, Date.`;
  }
  const seen = new Map<string, number>();
  for (const [index, name] of header.entries()) {
    if (name.length > CSV_LIMITS.headerLength) {
      return `Column ${index + 1}’s name is longer than ${CSV_LIMITS.headerLength} characters. Shorten it and choose the file again.`;
    }
    const key = name.toLowerCase();
    if (name === '') continue;
    const first = seen.get(key);
    if (first !== undefined) {
      return `Two columns are named “${name}” (columns ${first + 1} and ${index + 1}). Give each column its own name and choose the file again.`;
    }
    seen.set(key, index);
  }
  return null;
}

/**
 * The file's header and rows, reading at most `maxRows` rows: a longer file is refused as soon as
 * Papa Parse has read one row more than that (it stops there, so a file of 100,000 rows costs no
 * more than one of `maxRows`). Unnamed columns are called "Column 3"; a row with more or fewer
 * cells than the header keeps the cells it has and says why it can't be imported as it is.
 */
export function parseCsv(text: string, { maxRows }: { maxRows: number }): ParsedCsv {
  const result = Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: 'greedy',
    // The header, the rows allowed, and one more to know the file is longer.
    preview: maxRows + 2,
    delimitersToGuess: [',', ';', '\t', '|'],
  });
  const [first, ...rest] = result.data;
  if (!first) return { ok: false, message: EMPTY_FILE_MESSAGE };
  // A name protected against formula injection (write.ts) is read as the name it protects.
  const names = first.map((name) => unprotectCell(name.trim()));
  const header = names.map((name, index) => name || `Column ${index + 1}`);
  const problem = headerProblem(names);
  if (problem) return { ok: false, message: problem };
  if (rest.length === 0) {
    return {
      ok: false,
      message: 'This file has column names but no rows under them. Add at least one row.',
    };
  }
  if (rest.length > maxRows) {
    return {
      ok: false,
      message: `This file has more than ${groupedCount(maxRows)} rows; at most ${groupedCount(maxRows)} can be imported here. Split it, or delete the rows you don’t need.`,
    };
  }
  const quoteProblems = new Map<number, string>();
  for (const error of result.errors) {
    if (error.type === 'Quotes' && error.row !== undefined && !quoteProblems.has(error.row)) {
      quoteProblems.set(
        error.row,
        'A quote (") in this row is never closed, so its cells can’t be told apart. Fix the quotes in the file, or skip the row.',
      );
    }
  }
  const rows = rest.map((cells, index): CsvRow => {
    const number = index + 2;
    const quote = quoteProblems.get(index + 1);
    if (quote) return { number, cells: fit(cells, header.length), problem: quote };
    if (cells.length !== header.length) {
      return {
        number,
        cells: fit(cells, header.length),
        problem: `It has ${cells.length} ${cells.length === 1 ? 'cell' : 'cells'}, but the header has ${header.length} columns. Fix it in the file, or skip the row.`,
      };
    }
    return { number, cells };
  });
  return { ok: true, table: { header, rows } };
}

function fit(cells: string[], length: number): string[] {
  return Array.from({ length }, (_, i) => cells[i] ?? '');
}

/** Decodes and parses in one step (what an import does with a chosen file). */
export function readCsv(
  bytes: Uint8Array,
  options: { maxRows: number; encoding?: CsvEncoding },
): ParsedCsv | { ok: false; message: string; notUtf8?: boolean } {
  const decoded = decodeCsv(bytes, options.encoding);
  if (!decoded.ok) return decoded;
  return parseCsv(decoded.text, options);
}
