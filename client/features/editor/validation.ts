const NAME_MAX = 60;

/** A collection's, field's or action's name: 1–60 characters (SPEC §5). */
export function nameProblem(name: string, what: string): string | null {
  if (name.trim() === '') return `Name the ${what}.`;
  if (name.length > NAME_MAX) return `Keep the name to ${NAME_MAX} characters.`;
  return null;
}
