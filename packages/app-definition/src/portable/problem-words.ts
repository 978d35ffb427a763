import type { z } from 'zod';
import { componentAlone, propertyWords } from '../changes/changes';

/*
 * What is wrong with a definition, in words a person knows: "component 3 (a heading) of
 * the screen “Home”, its text", never `screens.0.components.2.props.text`. Used where a definition
 * from a file or a device is refused: an import (JSON or `.pipit`) and a checkpoint.
 */

type Node = Record<string, unknown> | undefined;

const at = (list: unknown, index: PropertyKey): Node => {
  const item = Array.isArray(list) && typeof index === 'number' ? (list[index] as unknown) : null;
  return item && typeof item === 'object' ? (item as Record<string, unknown>) : undefined;
};

const named = (kind: string, name: unknown, index: PropertyKey): string =>
  typeof name === 'string' && name.trim()
    ? `the ${kind} “${name.trim().slice(0, 40)}”`
    : `${kind} ${typeof index === 'number' ? index + 1 : ''}`.trim();

/** The properties left after the entity a path reaches: "its label", "its primary colour". */
function rest(path: ReadonlyArray<PropertyKey>): string {
  const keys = path.filter(
    (key): key is string => typeof key === 'string' && key !== 'props' && key !== 'values',
  );
  return keys.length > 0 ? `, its ${keys.map(propertyWords).join(' ')}` : '';
}

/**
 * Where `path` points in `value` (a definition, perhaps a broken one), in words: "the app’s
 * title", "the screen “Home”", "component 3 (a heading) of the screen “Home”, its text",
 * "the field “Title” of the collection “Books”". Empty for the whole app.
 */
export function placeInDefinition(value: unknown, path: ReadonlyArray<PropertyKey>): string {
  const root = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  const [top, index, child, childIndex] = path;
  switch (top) {
    case undefined:
      return '';
    case 'schemaVersion':
      return 'the app’s format version';
    case 'meta':
      return typeof index === 'string' ? `the app’s ${propertyWords(index)}` : 'the app’s details';
    case 'theme':
      return typeof index === 'string' ? `the theme’s ${propertyWords(index)}` : 'the theme';
  }
  if (index === undefined) return `the app’s ${propertyWords(String(top))}`;
  const parent = at(root[top as string], index);
  const kinds: Record<string, [string, string, string]> = {
    // key: [what it is, the children's key, what a child is]
    screens: ['screen', 'components', 'component'],
    collections: ['collection', 'fields', 'field'],
    actions: ['action', 'steps', 'step'],
    aiActions: ['AI action', '', ''],
    reminders: ['reminder', '', ''],
  };
  const kind = kinds[top as string];
  if (!kind) return '';
  const parentName = named(kind[0], parent?.title ?? parent?.name, index as PropertyKey);
  if (child === undefined) return parentName;
  if (typeof childIndex !== 'number' || (child !== kind[1] && child !== 'records')) {
    return `${parentName}${rest(path.slice(2))}`;
  }
  const item = at(parent?.[child], childIndex);
  let itemName: string;
  if (child === 'components') {
    const type = typeof item?.type === 'string' ? componentAlone(item.type) : null;
    itemName = `component ${childIndex + 1}${type ? ` (${type})` : ''}`;
  } else if (child === 'fields') {
    itemName = named('field', item?.name, childIndex);
  } else {
    itemName = `${child === 'records' ? 'record' : kind[2]} ${childIndex + 1}`;
  }
  if (child === 'records' && path[4] === 'values') {
    // A record's values are keyed by field id: named by the field instead.
    const fields = Array.isArray(parent?.fields) ? (parent.fields as unknown[]) : [];
    const field = fields.find((f) => (f as Node)?.id === path[5]) as Node;
    const name = typeof field?.name === 'string' ? `its value for “${field.name}”` : 'a value';
    return `${itemName} of ${parentName}, ${name}`;
  }
  return `${itemName} of ${parentName}${rest(path.slice(4))}`;
}

/** zod's words for the common mistakes, said plainly; the schema's own messages stay. */
export function issueInWords(issue: z.core.$ZodIssue): string {
  // The schema's own messages ("Keep the title to 60 characters.") are written for people already.
  const zods = /^(Too big|Too small|Invalid|Unrecognized)/.test(issue.message);
  if (!zods) return /[.!?]$/.test(issue.message) ? issue.message : `${issue.message}.`;
  if (issue.code === 'too_big' && issue.origin === 'string') {
    return `It is longer than ${String(issue.maximum)} characters, the most it may be.`;
  }
  if (issue.code === 'too_big' && issue.origin === 'array') {
    return `It holds more than ${String(issue.maximum)}, the most it may.`;
  }
  if (issue.code === 'too_small' && issue.origin === 'string' && issue.minimum === 1) {
    return 'It is empty.';
  }
  if (issue.code === 'invalid_type') return 'It is missing or not of the right kind.';
  if (issue.code === 'invalid_union' && issue.path.at(-1) === 'type') {
    return 'Its kind is not known here.';
  }
  if (issue.code === 'unrecognized_keys') return 'It holds a setting not known here.';
  return /[.!?]$/.test(issue.message) ? issue.message : `${issue.message}.`;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** One issue as a sentence: "Component 3 (a heading) of the screen “Home”, its text: It is …". */
export function problemInWords(value: unknown, issue: z.core.$ZodIssue): string {
  const where = placeInDefinition(value, issue.path);
  return where ? `${capital(where)}: ${issueInWords(issue)}` : issueInWords(issue);
}

/** The first few problems of a definition, joined: what a refusal says. */
export function problemsInWords(value: unknown, issues: readonly z.core.$ZodIssue[]): string {
  const first = issues.slice(0, 3).map((issue) => problemInWords(value, issue));
  return `${first.join(' ')}${issues.length > 3 ? ` And ${issues.length - 3} more.` : ''}`;
}
