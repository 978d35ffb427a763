import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { InstallSteps } from './install-steps';

const stepsText = (oneClick: boolean) =>
  renderToStaticMarkup(createElement(InstallSteps, { detected: 'android', oneClick })).replace(
    /<[^>]+>/g,
    '',
  );

describe('the install steps point only to what the page shows', () => {
  it('say nothing of an Install button when the browser offers no one-click install', () => {
    const text = stepsText(false);
    expect(text).not.toMatch(/Install above/);
    expect(text).toContain('Open Chrome’s menu ⋮ and tap Install app');
    expect(text).toContain('Click the install icon at the right end of the address bar');
  });

  it('point to the Install button when the page shows it', () => {
    const text = stepsText(true);
    expect(text).toContain('Tap Install above.');
    expect(text).toContain('Click Install above, or the install icon');
    expect(text).toContain('Or open Chrome’s menu');
  });
});
