import { LIMITS, safeUrlSchema } from '@pipit/app-definition';

/** A collection's, field's or action's name: 1–60 characters (docs/product/app-definition.md). */
export function nameProblem(name: string, what: string): string | null {
  if (name.trim() === '') return `Name the ${what}.`;
  if (name.length > LIMITS.nameLength) return `Keep the name to ${LIMITS.nameLength} characters.`;
  return null;
}

/** A screen's title: 1–60 characters (docs/product/app-definition.md). */
export function screenTitleProblem(title: string): string | null {
  if (title.trim() === '') return 'Give the screen a title.';
  if (title.length > LIMITS.screenTitleLength) {
    return `Keep the title to ${LIMITS.screenTitleLength} characters.`;
  }
  return null;
}

/** A web address (or a path on this site); empty means none. */
export function urlProblem(url: string): string | null {
  if (url.trim() === '') return null;
  const parsed = safeUrlSchema.safeParse(url);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Check the address.');
}
