import type { SpaceActivityItem } from '../storage/types';

/** The most people a notification names; more are "and N others". */
const NAMED_PEOPLE = 2;

/** "Ben", "Ben and Ana", "Ben, Ana and Cleo"; past three, "Ben, Ana and 2 others". */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? 'Someone';
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  if (names.length === 3) return `${names[0]}, ${names[1]} and ${names[2]}`;
  return `${names.slice(0, NAMED_PEOPLE).join(', ')} and ${names.length - NAMED_PEOPLE} others`;
}

/**
 * The text of one batch for one recipient (docs/product/reminders.md#space-activity): "Ben added
 * Eggs to Our flat", "Ben and Ana added 5 items to Our flat; Ana completed Milk". An item's name
 * is shown only when the batch holds one item of that kind and the recipient sees names (the
 * stored item has its name); otherwise "an item", "3 items". A record counts once per kind.
 */
export function activityText(
  items: readonly Pick<SpaceActivityItem, 'authorId' | 'kind' | 'recordId' | 'name'>[],
  spaceName: string,
  nameOfPerson: (userId: string) => string,
): string {
  const parts: string[] = [];
  for (const kind of ['added', 'completed'] as const) {
    const seen = new Set<string>();
    const ofKind = items.filter((item) => {
      if (item.kind !== kind || seen.has(item.recordId)) return false;
      seen.add(item.recordId);
      return true;
    });
    if (ofKind.length === 0) continue;
    const people = joinNames([...new Set(ofKind.map((i) => i.authorId))].map(nameOfPerson));
    const what = ofKind.length === 1 ? (ofKind[0]!.name ?? 'an item') : `${ofKind.length} items`;
    parts.push(
      kind === 'added' ? `${people} added ${what} to ${spaceName}` : `${people} completed ${what}`,
    );
  }
  return parts.join('; ');
}
