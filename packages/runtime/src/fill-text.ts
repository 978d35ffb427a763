import { hasTemplate, renderTemplate } from '@pipit/app-definition';
import { templateScope } from './actions';
import type { RenderContext } from './render-context';

/** Characters that mean something in the runtime's markdown, escaped in substituted values. */
const MARKDOWN_SPECIAL = /[\\`*_[\]()#-]/g;

export function escapeMarkdown(value: string): string {
  return value.replace(MARKDOWN_SPECIAL, '\\$&');
}

/**
 * A component's text with `{{record.…}}` and `{{user.name}}` filled in when the app runs. In the
 * editor's preview the placeholders stay visible, so the creator sees where they are.
 */
export function fillText(
  context: RenderContext,
  text: string,
  escape?: (value: string) => string,
): string {
  const { run } = context;
  if (!run || !hasTemplate(text)) return text;
  const scope = templateScope(context.definition, run.current, null, run.user);
  return renderTemplate(text, scope, escape ? { escape } : {});
}
