import { type AppDefinition, appDefinitionSchema } from '../schema/definition';
import type { ReadDefinition } from './reader';

/**
 * A definition without the components this version of Pipit cannot read (`type: 'invalid'`, made
 * by a newer one): what a merge, a checkpoint or a restore can work with. The live document keeps
 * them (applyDefinition never removes them).
 */
export function withoutInvalid(definition: ReadDefinition | AppDefinition): AppDefinition {
  return {
    ...definition,
    screens: definition.screens.map((screen) => ({
      ...screen,
      components: screen.components.filter((c) => c.type !== 'invalid'),
    })),
  } as AppDefinition;
}

/**
 * Reads a definition that came from elsewhere (a device's checkpoint, a stored one): unreadable
 * components are left out as above, then every rule of the schema applies.
 */
export function parseKnownDefinition(value: unknown) {
  const screens = (value as { screens?: unknown } | null)?.screens;
  const readable =
    Array.isArray(screens) &&
    screens.every((s: unknown) => Array.isArray((s as { components?: unknown } | null)?.components))
      ? withoutInvalid(value as ReadDefinition)
      : value;
  return appDefinitionSchema.safeParse(readable);
}

/** A deep copy of a JSON value, so nothing the caller gets shares objects with the inputs. */
export function copyJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(copyJson) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = copyJson(item);
  return out as T;
}
