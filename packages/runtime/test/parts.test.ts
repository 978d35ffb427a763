import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { aiStepsModule } from '../src/actions';
import { AppScreen } from '../src/index';
import {
  chartModule,
  counterModule,
  preloadRuntimeParts,
  recordBlocksModule,
  timerModule,
  viewModules,
} from '../src/parts';
import { summarise } from './support/app-fixture';
import { component, definitionWith, EVERY_TYPE } from './support/fixture';
import { findAll, renderStatic, type StaticNode } from './support/render-static';

/*
 * The parts only some apps need are chunks of their own (parts.ts). This file loads none of them
 * up front (the other suites load them all): a part not here yet holds its place, and an app's
 * parts are loaded ahead of its first render, only those it uses.
 */

const chartApp = definitionWith([EVERY_TYPE.chart, component('t', 'list', { view: 'board' })]);
const inChart = (tree: StaticNode[]): StaticNode[] =>
  findAll(tree, (n) => n.props['data-component-id'] === EVERY_TYPE.chart.id)[0]?.children ?? [];
const render = () =>
  renderStatic(
    createElement(AppScreen, { screenId: 'home', colorMode: 'light', definition: chartApp }),
  );

describe('the runtime’s parts', () => {
  it('holds a chart’s place while its code is not here, then draws it once it is loaded ahead', async () => {
    expect(chartModule.loaded()).toBeNull();
    const before = inChart(render().tree);
    expect(findAll(before, (n) => n.props['aria-busy'] === 'true')).toHaveLength(1);
    expect(findAll(before, (n) => n.tag === 'svg')).toHaveLength(0);

    await preloadRuntimeParts(chartApp);
    const after = inChart(render().tree);
    expect(findAll(after, (n) => n.tag === 'svg')).toHaveLength(1);
    expect(findAll(after, (n) => n.props['aria-busy'] === 'true')).toHaveLength(0);
  });

  it('loads only the parts the app uses', () => {
    // The app above has a chart and a board: no timer, no other view.
    expect(chartModule.loaded()).not.toBeNull();
    expect(viewModules.board.loaded()).not.toBeNull();
    expect(timerModule.loaded()).toBeNull();
    expect(viewModules.calendar.loaded()).toBeNull();
    expect(counterModule.loaded()).toBeNull();
    expect(recordBlocksModule.loaded()).toBeNull();
    expect(aiStepsModule.loaded()).toBeNull();
  });

  it('loads the AI steps ahead for an app with AI actions', async () => {
    await preloadRuntimeParts({ ...definitionWith([]), aiActions: [summarise] });
    expect(aiStepsModule.loaded()).not.toBeNull();
  });

  it('draws a counter, a stat and a detail at once once they are loaded ahead', async () => {
    const app = definitionWith([EVERY_TYPE.counter, EVERY_TYPE.stat, EVERY_TYPE.detail]);
    const drawn = () => {
      const tree = renderStatic(
        createElement(AppScreen, { screenId: 'home', colorMode: 'light', definition: app }),
      ).tree;
      return [EVERY_TYPE.counter, EVERY_TYPE.stat, EVERY_TYPE.detail].map((part) => {
        const inPart =
          findAll(tree, (n) => n.props['data-component-id'] === part.id)[0]?.children ?? [];
        return findAll(inPart, (n) => n.props['aria-busy'] === 'true').length === 0;
      });
    };
    expect(drawn()).toEqual([false, false, false]);

    await preloadRuntimeParts(app);
    expect(counterModule.loaded()).not.toBeNull();
    expect(recordBlocksModule.loaded()).not.toBeNull();
    expect(drawn()).toEqual([true, true, true]);
  });
});
