/**
 * A schema built the first time it is used rather than when its module loads.
 *
 * Every page loads the route tree, and with it the protocol modules its routes' loaders and search
 * validators import: building their schemas (zod runs a chain of initialisers per schema) was the
 * largest part of zod's time in a public page's start, ~100 ms of a phone's main thread, for
 * schemas of pages other than the one loading. Wrapped, a module's schemas cost nothing until a
 * page parses with one (or builds a schema from one).
 *
 * The answer stands in for the schema in every way zod and its callers use one: reading a property
 * (`_zod`, `shape`, `~standard`, `parse`…), `in`, `instanceof` (zod's classes answer from `_zod`),
 * and nesting it in another schema. Its type is the schema's own.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = () => (built ??= build());
  // The target is only a placeholder: every trap answers from the built schema.
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not call a property non-configurable that its target lacks.
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
