/** A unique constraint was violated; `field` names the column when the engine says which. */
export class ConflictError extends Error {
  constructor(readonly field: string | undefined) {
    super(`Unique constraint violated${field ? ` on ${field}` : ''}`);
  }
}

/** An update addressed an account that does not exist (or is deleted). */
export class NotFoundError extends Error {}
