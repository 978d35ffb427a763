import type { ReadDefinition } from '@pipit/app-definition';
import type { PublishProblem } from '@pipit/protocol';
import type { PropertiesTab } from '../common/editor-context';
import { componentSummary, propLabel } from '../common/labels';

/** Where in the editor a problem can be fixed. */
export type ProblemTarget =
  | { kind: 'component'; screenId: string; componentId: string }
  | { kind: 'screen'; screenId: string }
  | { kind: 'reminder'; reminderId: string }
  | { kind: 'tab'; tab: PropertiesTab };

export interface ResolvedProblem {
  message: string;
  /** What it is about, in the editor's words ("Home › Link “Our site”", "Collections"). */
  where: string;
  target: ProblemTarget | null;
}

const TAB_OF_TABLE: Record<string, PropertiesTab> = {
  collections: 'collections',
  fields: 'collections',
  records: 'collections',
  actions: 'actions',
  steps: 'actions',
  aiActions: 'actions',
  // A reminder the editor can't read (the reader skips one that doesn't parse): its panel.
  reminders: 'reminders',
};
const TAB_WORDS: Record<PropertiesTab, string> = {
  inspector: 'Inspector',
  collections: 'Collections',
  actions: 'Actions',
  reminders: 'Reminders',
  theme: 'Theme',
  settings: 'App settings',
};

function componentTarget(
  definition: ReadDefinition,
  componentId: string,
): ResolvedProblem['target'] {
  const screen = definition.screens.find((s) => s.components.some((c) => c.id === componentId));
  return screen ? { kind: 'component', screenId: screen.id, componentId } : null;
}

/** The property a path ends on (`…props.url` → "Url"), if it names one. */
function propertyOf(path: string): string | null {
  const match = /\.props\.([A-Za-z]+)/.exec(path);
  return match?.[1] ? propLabel(match[1]) : null;
}

/** The target a path's indexes point at in the definition the editor shows. */
function targetFromPath(definition: ReadDefinition, path: string): ProblemTarget | null {
  const [head, first, second, third] = path.split('.');
  if (head === 'meta') return { kind: 'tab', tab: 'settings' };
  if (head === 'theme') return { kind: 'tab', tab: 'theme' };
  if (head === 'reminders') {
    const reminder = definition.reminders[Number(first)];
    if (reminder) return { kind: 'reminder', reminderId: reminder.id };
  }
  if (head && TAB_OF_TABLE[head]) return { kind: 'tab', tab: TAB_OF_TABLE[head] };
  if (head !== 'screens') return null;
  const screen = definition.screens[Number(first)];
  if (!screen) return null;
  const component = second === 'components' ? screen.components[Number(third)] : undefined;
  return component
    ? { kind: 'component', screenId: screen.id, componentId: component.id }
    : { kind: 'screen', screenId: screen.id };
}

function describe(definition: ReadDefinition, target: ProblemTarget | null, path: string): string {
  if (!target) return 'The app';
  if (target.kind === 'tab') return TAB_WORDS[target.tab];
  if (target.kind === 'reminder') {
    const reminder = definition.reminders.find((r) => r.id === target.reminderId);
    return reminder ? `Reminder “${reminder.title}”` : TAB_WORDS.reminders;
  }
  const screen = definition.screens.find((s) => s.id === target.screenId);
  const screenName = screen ? `Screen “${screen.title}”` : 'A screen';
  if (target.kind === 'screen') return screenName;
  const component = screen?.components.find((c) => c.id === target.componentId);
  if (!component) return screenName;
  const { name, detail } = componentSummary(component);
  const property = propertyOf(path);
  return `${screenName} › ${name}${detail ? ` “${detail}”` : ''}${property ? ` › ${property}` : ''}`;
}

/**
 * Turns the server's `publish_invalid` problems into things a person can click: the entity the
 * server named when it names one (its indexes may differ from what this editor shows, since another
 * device may have moved things), else the path's indexes resolved against the definition shown.
 */
export function resolveProblems(
  definition: ReadDefinition,
  problems: PublishProblem[],
): ResolvedProblem[] {
  return problems.map((problem) => {
    let target: ProblemTarget | null = null;
    const entity = problem.entity;
    if (entity?.table === 'components') target = componentTarget(definition, entity.id);
    else if (entity?.table === 'screens' && definition.screens.some((s) => s.id === entity.id)) {
      target = { kind: 'screen', screenId: entity.id };
    } else if (
      entity?.table === 'reminders' &&
      definition.reminders.some((r) => r.id === entity.id)
    ) {
      target = { kind: 'reminder', reminderId: entity.id };
    } else if (entity && TAB_OF_TABLE[entity.table]) {
      target = { kind: 'tab', tab: TAB_OF_TABLE[entity.table]! };
    }
    target ??= targetFromPath(definition, problem.path);
    return { message: problem.message, where: describe(definition, target, problem.path), target };
  });
}

/** The problems of an answer that has only `fields` (path → message). */
export function problemsFromFields(fields: Record<string, string>): PublishProblem[] {
  return Object.entries(fields).map(([path, message]) => ({ path, message, entity: null }));
}
