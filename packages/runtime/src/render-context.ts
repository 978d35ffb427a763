import type { ReadDefinition } from '@pipit/app-definition';

/** What every component renderer may read besides its own props. */
export interface RenderContext {
  definition: ReadDefinition;
  onNavigate?: ((screenId: string) => void) | undefined;
}
