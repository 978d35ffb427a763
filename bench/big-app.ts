import {
  addComponent,
  addScreen,
  type ComponentType,
  createApp,
  LIMITS,
} from '@pipit/app-definition';
import type * as Y from 'yjs';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** An id as Pipit makes them (26 characters of base32), for every benchmark's apps and things. */
export const newId = () =>
  Array.from({ length: 26 }, () => ALPHABET[Math.floor(Math.random() * 32)]).join('');

/** The benchmarks' big app: 1,000 components over as many screens as the limits need. */
export const COMPONENTS = 1_000;

const MIX: Array<[ComponentType, (n: number) => Record<string, unknown>]> = [
  ['heading', (n) => ({ text: `Section ${n}`, level: 2 })],
  [
    'text',
    (n) => ({ markdown: `Paragraph ${n}: a few words of **markdown** text, as apps have.` }),
  ],
  ['button', (n) => ({ label: `Action ${n}` })],
  ['image', () => ({ alt: 'A picture' })],
  ['link', (n) => ({ label: `Link ${n}`, url: 'https://example.org/' })],
  ['divider', () => ({})],
];

/** Builds the app with the editor's operations; returns every edit's update, as they were made. */
export function buildApp(doc: Y.Doc, newId: () => string): Uint8Array[] {
  const updates: Uint8Array[] = [];
  doc.on('update', (update: Uint8Array) => updates.push(update));
  const screens = [createApp(doc, newId, { title: 'Benchmark app' })];
  while (screens.length * LIMITS.componentsPerScreen < COMPONENTS) {
    screens.push(addScreen(doc, newId, { title: `Screen ${screens.length + 1}` }));
  }
  for (let i = 0; i < COMPONENTS; i++) {
    const screen = screens[Math.floor(i / LIMITS.componentsPerScreen)] ?? '';
    const [type, props] = MIX[i % MIX.length] ?? ['divider', () => ({})];
    addComponent(doc, newId, screen, type, Infinity, props(i));
  }
  return updates;
}
