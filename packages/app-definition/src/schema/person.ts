/*
 * A person field's value (docs/product/app-definition.md, "People in a space"): one account, by its
 * id. Plain code without zod: the installed app checks and shows these values.
 */

/** The longest account id a person field holds (ids are 26 characters; room for other shapes). */
export const PERSON_ID_LENGTH = 64;
const PERSON_ID = /^[A-Za-z0-9_-]+$/;

/** What a record shows for someone no longer in the space, as it does for what they added. */
export const FORMER_MEMBER = 'a former member';

/** Whether a value can be a person field's: an account id (whether they are in the space is not asked). */
export function isPersonId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= PERSON_ID_LENGTH && PERSON_ID.test(value);
}

/** Someone a person field can name: an account id and the name the space's people know them by. */
export interface PersonChoice {
  readonly id: string;
  readonly name: string;
}

/**
 * The name a person field's value shows: the person's, as the space's members know them; "a former
 * member" once they are no longer among `people`. `people` absent (not known on this device yet):
 * null, and the caller says what it can.
 */
export function personName(id: string, people: readonly PersonChoice[] | undefined): string | null {
  if (!people) return null;
  return people.find((person) => person.id === id)?.name ?? FORMER_MEMBER;
}
