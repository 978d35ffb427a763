/**
 * The apps and the data the records bench measures: a task log of 5,000 records with three
 * formulas and a rollup over a relation to the creator's projects, and a photo album (a form with
 * a photo, the photos as a gallery). Written as a creator would publish them and as a visitor's
 * device would store its records.
 */
import { createHash } from 'node:crypto';
import { type AppDefinition, COMPONENT_PROPS, formatFileReference } from '@pipit/app-definition';
import type { RunningPipit } from '@pipit/sync-server/testing';
import type { Person } from '../e2e/support/people';
import { definitionOf } from '../sync-server/test/support/publishing';
// Not re-exported by @pipit/sync-server/testing; imported by path, as the server's own tests do.
import { writeDataDocumentAs } from '../sync-server/test/support/visitor-data';

type Field = AppDefinition['collections'][number]['fields'][number];
type Component = AppDefinition['screens'][number]['components'][number];

export const TASKS = 'tasks';
export const PROJECTS = 'projects';
/** The formula the list shows as each record's subtitle (the bench waits for it). */
export const LABEL_FORMULA = 'label';
export const PROJECT_COUNT = 20;

function field(id: string, name: string, type: Field['type'], more: Partial<Field> = {}): Field {
  return { id, name, type, required: false, default: null, options: [], ...more };
}

function list(id: string, props: Record<string, unknown>): Component {
  return { id, type: 'list', props: COMPONENT_PROPS.list.parse(props) } as Component;
}

/**
 * Tasks: name, hours, rate, a project (a relation to the creator's projects); a rollup (the
 * project's budget, summed over the one project linked); three formulas, one reading the rollup
 * and one another formula. Projects count their tasks (a rollup over the relation, reversed). The
 * first screen is the tasks' plain list, each record's subtitle a formula.
 */
export function taskLog(): AppDefinition {
  const base = definitionOf({ title: 'Task log' });
  const projectIds = Array.from({ length: PROJECT_COUNT }, (_, i) => `project-${i + 1}`);
  return {
    ...base,
    collections: [
      {
        id: TASKS,
        name: 'Tasks',
        fields: [
          field('title', 'Name', 'text', { required: true }),
          field('hours', 'Hours', 'number'),
          field('rate', 'Rate', 'number'),
          field('project', 'Project', 'relation', { target: PROJECTS }),
          field('projectBudget', 'Project budget', 'rollup', {
            through: 'project',
            aggregate: 'sum',
            aggregateFieldId: 'budget',
          }),
          field('cost', 'Cost', 'formula', { formula: 'ROUND({Hours} * {Rate}, 2)' }),
          field(LABEL_FORMULA, 'Label', 'formula', {
            formula: 'UPPER({Name}) & " · " & {Hours} & " h · " & TEXT({Cost})',
          }),
          field('status', 'Status', 'formula', {
            formula: 'IF({Cost} > {Project budget} / 50, "over budget", "ok")',
          }),
        ],
        records: [],
        sharing: 'private',
        recordRule: 'anyone',
      },
      {
        id: PROJECTS,
        name: 'Projects',
        fields: [
          field('projectName', 'Name', 'text', { required: true }),
          field('budget', 'Budget', 'number'),
          field('taskCount', 'Tasks', 'rollup', {
            through: 'project',
            throughCollection: TASKS,
            aggregate: 'count',
          }),
        ],
        records: projectIds.map((id, i) => ({
          id,
          values: { projectName: `Project ${i + 1}`, budget: 1000 + i * 250 },
        })),
        sharing: 'private',
        recordRule: 'anyone',
      },
    ],
    screens: [
      {
        id: 'task-screen',
        title: 'Tasks',
        icon: '🗂️',
        components: [
          list('task-list', {
            collectionId: TASKS,
            titleFieldId: 'title',
            subtitleFieldId: LABEL_FORMULA,
            emptyText: 'No tasks yet.',
          }),
        ],
      },
    ],
    actions: [],
    aiActions: [],
  };
}

/** The values of task `i` (the same every run). */
export function taskValues(i: number): Record<string, unknown> {
  return {
    title: `Task ${String(i + 1).padStart(4, '0')}`,
    hours: (i % 40) + 1,
    rate: 20 + (i % 7) * 5,
    project: [`project-${(i % PROJECT_COUNT) + 1}`],
  };
}

/**
 * Writes `count` tasks into the visitor's own data document through the server, as their device
 * would send them (a provider with their session), in batches the server acknowledges one by one.
 */
export function writeTasks(
  pipit: RunningPipit,
  visitor: Person,
  appId: string,
  count: number,
): Promise<void> {
  return writeDataDocumentAs(
    pipit.url,
    { appId, userId: visitor.id },
    visitor.api.cookie,
    taskLog().collections[0]!,
    Array.from({ length: count }, (_, i) => taskValues(i)),
  );
}

export const PHOTOS = 'photos';

/** A photo album: a form with a name and a photo, then the photos as a gallery, on one screen. */
export function photoAlbum(): AppDefinition {
  const base = definitionOf({ title: 'Photo album' });
  const form = base.screens.flatMap((s) => s.components).find((c) => c.type === 'form')!;
  return {
    ...base,
    collections: [
      {
        id: PHOTOS,
        name: 'Photos',
        fields: [
          field('photoName', 'Name', 'text', { required: true }),
          field('photo', 'Photo', 'image'),
        ],
        records: [],
        sharing: 'private',
        recordRule: 'anyone',
      },
    ],
    screens: [
      {
        id: 'album-screen',
        title: 'Album',
        icon: '📷',
        components: [
          {
            ...form,
            id: 'add-photo',
            props: {
              ...form.props,
              collectionId: PHOTOS,
              fieldIds: [],
              submitLabel: 'Add photo',
              actionId: null,
              mode: 'create',
            },
          } as Component,
          list('gallery', {
            collectionId: PHOTOS,
            titleFieldId: 'photoName',
            view: 'gallery',
            imageFieldId: 'photo',
            emptyText: 'No photos yet.',
          }),
        ],
      },
    ],
    actions: [],
    aiActions: [],
  };
}

/**
 * Sends each photo to the server as a device does (`PUT /api/apps/{id}/files/{hash}`: the server
 * re-encodes it and makes its thumbnail), then writes a record naming each into the visitor's data
 * document. What the device keeps is not touched: a device opening the album has only the
 * server's copies.
 */
export async function writePhotos(
  pipit: RunningPipit,
  visitor: Person,
  appId: string,
  photos: Buffer[],
): Promise<void> {
  const references: string[] = [];
  for (const bytes of photos) {
    const hash = createHash('sha256').update(bytes).digest('hex');
    // As a browser sends it (the API client sends JSON only): same origin, the session cookie.
    const sent = await fetch(`${pipit.url}/api/apps/${appId}/files/${hash}?kind=image`, {
      method: 'PUT',
      body: new Uint8Array(bytes),
      headers: {
        'Content-Type': 'image/png',
        Origin: pipit.url,
        'Sec-Fetch-Site': 'same-origin',
        Cookie: visitor.api.cookie ?? '',
      },
    });
    if (!sent.ok) throw new Error(`sending a photo: ${sent.status} ${await sent.text()}`);
    references.push(
      formatFileReference({
        hash,
        size: bytes.length,
        type: 'image/png',
        name: `photo-${references.length + 1}.png`,
      }),
    );
  }
  await writeDataDocumentAs(
    pipit.url,
    { appId, userId: visitor.id },
    visitor.api.cookie,
    photoAlbum().collections[0]!,
    references.map((photo, i) => ({ photoName: `Photo ${i + 1}`, photo })),
  );
}
