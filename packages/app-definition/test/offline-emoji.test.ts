import { describe, expect, it } from 'vitest';
import { emojiImagePath, OFFLINE_EMOJI } from '@pipit/protocol';
import { APP_TEMPLATES, DEFAULT_APP_ICON, habitTrackerShowcase } from '../src/index';

/*
 * The service worker precaches the pictures of OFFLINE_EMOJI (vite.config.ts): an app made offline
 * from a template, or with the default icon, shows its picture on a device that never saw it.
 */
describe('the icons whose pictures work offline from the first visit', () => {
  it('are the default icon, every template’s and the showcase’s', () => {
    const icons = [
      DEFAULT_APP_ICON,
      ...APP_TEMPLATES.map((template) => template.icon),
      habitTrackerShowcase().meta.icon,
    ];
    for (const icon of icons) {
      expect(icon.kind).toBe('emoji');
      if (icon.kind === 'emoji') expect(OFFLINE_EMOJI).toContain(icon.emoji);
    }
  });

  it('all have a picture path', () => {
    for (const emoji of OFFLINE_EMOJI) expect(emojiImagePath(emoji), emoji).not.toBeNull();
  });
});
