import { describe, expect, it } from 'vitest';
import { HEAD_SCRIPTS, THEME_STORAGE_KEY, withHeadScripts } from '../src/head-scripts';

describe('withHeadScripts', () => {
  it('writes each named script in, inline, where the page asks for it', () => {
    const html = withHeadScripts(
      '<head><!-- head-script: theme-init --><!-- head-script: zod-jitless --><title>x</title>',
    );
    expect(html).toBe(
      `<head><script>${HEAD_SCRIPTS['theme-init']}</script>` +
        `<script>${HEAD_SCRIPTS['zod-jitless']}</script><title>x</title>`,
    );
  });

  it('fails on a name it does not know, rather than leave a page without its script', () => {
    expect(() => withHeadScripts('<!-- head-script: theme-inti -->')).toThrow(
      'no head script named "theme-inti"',
    );
    expect(() => withHeadScripts('<!-- head-script: constructor -->')).toThrow();
  });

  it('keeps a script that cannot close its element early', () => {
    for (const script of Object.values(HEAD_SCRIPTS)) expect(script).not.toMatch(/<\/?script/i);
  });
});

describe('the head scripts in a page', () => {
  it('apply the stored theme and configure zod as the page loads', () => {
    const dataset: Record<string, string> = {};
    const stored = new Map([[THEME_STORAGE_KEY, 'dark']]);
    const scope = {
      localStorage: { getItem: (key: string) => stored.get(key) ?? null },
      document: { documentElement: { dataset } },
      globalThis: {} as Record<string, unknown>,
    };
    const run = (script: string) =>
      new Function('localStorage', 'document', 'globalThis', script)(
        scope.localStorage,
        scope.document,
        scope.globalThis,
      );
    run(HEAD_SCRIPTS['theme-init']);
    expect(dataset.theme).toBe('dark');
    stored.set(THEME_STORAGE_KEY, 'purple');
    delete dataset.theme;
    run(HEAD_SCRIPTS['theme-init']);
    expect(dataset.theme).toBeUndefined();
    run(HEAD_SCRIPTS['zod-jitless']);
    expect(scope.globalThis.__zod_globalConfig).toEqual({ jitless: true });
  });
});
