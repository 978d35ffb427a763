import { notFound } from '@tanstack/react-router';
import { isId } from '@pipit/protocol';

/** An id that cannot be an app id is the 404 page, not an app-not-found page. */
export function requireAppId({ params }: { params: { id: string } }): void {
  if (!isId(params.id)) throw notFound();
}
