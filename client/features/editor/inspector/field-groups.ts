import type { Field } from '@pipit/app-definition';

export interface FieldGroup {
  id: string;
  label: string;
  fields: Field[];
}

/** Fields of the chosen collection, or of every collection when none is chosen (by group). */
export function fieldGroups(
  collections: ReadonlyArray<{ id: string; name: string; fields: Field[] }>,
  collectionId: unknown,
): FieldGroup[] {
  const chosen = collections.find((c) => c.id === collectionId);
  if (chosen) return [{ id: chosen.id, label: chosen.name, fields: chosen.fields }];
  return collections.map((c) => ({ id: c.id, label: c.name, fields: c.fields }));
}
