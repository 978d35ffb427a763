/** Who did what, as the collaboration layer hands it over with a transaction. */
interface Origin {
  source?: unknown;
  connection?: { readOnly?: boolean; context?: { userId?: unknown } };
}

/**
 * The account whose connection made a transaction, or null (storage, the fan-out from another
 * instance, the server itself, a read-only connection).
 */
export function authorOf(origin: unknown): string | null {
  if (typeof origin !== 'object' || origin === null) return null;
  const { source, connection } = origin as Origin;
  if (source !== 'connection' || !connection || connection.readOnly) return null;
  const userId = connection.context?.userId;
  return typeof userId === 'string' && userId !== '' ? userId : null;
}
