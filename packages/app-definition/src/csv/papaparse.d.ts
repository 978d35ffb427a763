/*
 * The part of Papa Parse (papaparse 5.7) this package uses. Not @types/papaparse: it references
 * Node's types, which would give every package Node's globals (packages name no platform,
 * tsconfig.base.json `types: []`). Checked against papaparse's README.
 */
declare module 'papaparse' {
  export interface ParseError {
    type: 'Quotes' | 'Delimiter' | 'FieldMismatch';
    code: string;
    message: string;
    /** The row (from 0, the header included) the error is in, when known. */
    row?: number;
  }
  export interface ParseResult<T> {
    data: T[];
    errors: ParseError[];
    meta: { delimiter: string; linebreak: string; aborted: boolean; truncated: boolean };
  }
  export interface ParseConfig {
    header?: false;
    skipEmptyLines?: boolean | 'greedy';
    /** Stop after this many rows. */
    preview?: number;
    delimitersToGuess?: string[];
  }
  export interface UnparseConfig {
    newline?: string;
  }
  export function parse<T>(input: string, config?: ParseConfig): ParseResult<T>;
  export function unparse(
    data: { fields: string[]; data: string[][] },
    config?: UnparseConfig,
  ): string;
  const Papa: { parse: typeof parse; unparse: typeof unparse };
  export default Papa;
}
