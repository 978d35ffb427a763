import type { ReadComponent } from '@pipit/app-definition';
import {
  DividerBlock,
  HeadingBlock,
  ImageBlock,
  LinkBlock,
  TextBlock,
} from './blocks/basic-blocks';
import { ButtonBlock } from './blocks/button-block';
import { FormBlock } from './blocks/form-block';
import { ChecklistBlock, ListBlock } from './blocks/list-blocks';
import { InvalidPlaceholder } from './invalid-placeholder';
import { lazy, Suspense } from 'react';
import { lazyPart } from './lazy-part';
import { chartModule, counterModule, recordBlocksModule, timerModule } from './parts';

// Only apps with AI actions have AI components: the others never download their code.
const AiBlock = lazy(() => import('./blocks/ai-block').then((m) => ({ default: m.AiBlock })));
import type { RenderContext } from './render-context';

/** Where a part not loaded yet will be: a card of its kind, busy. */
const partLoading = () => <div className="rt-card rt-view-loading" aria-busy="true" />;
// Charts, timers, counters, details and stats are their own chunks (parts.ts): only apps with
// them download them.
const ChartBlock = lazyPart(chartModule, (m) => m.ChartBlock, partLoading);
const TimerBlock = lazyPart(timerModule, (m) => m.TimerBlock, partLoading);
const CounterBlock = lazyPart(counterModule, (m) => m.CounterBlock, partLoading);
const DetailBlock = lazyPart(recordBlocksModule, (m) => m.DetailBlock, partLoading);
const StatBlock = lazyPart(recordBlocksModule, (m) => m.StatBlock, partLoading);

/** One component of a screen by its type; an unreadable one is a placeholder. */
export function RenderComponent({
  component,
  context,
}: {
  component: ReadComponent;
  context: RenderContext;
}) {
  switch (component.type) {
    case 'heading':
      return <HeadingBlock props={component.props} context={context} />;
    case 'text':
      return <TextBlock props={component.props} context={context} />;
    case 'image':
      return <ImageBlock props={component.props} />;
    case 'button':
      return <ButtonBlock props={component.props} context={context} />;
    case 'list':
      return <ListBlock props={component.props} context={context} />;
    case 'detail':
      return <DetailBlock props={component.props} context={context} />;
    case 'form':
      return <FormBlock props={component.props} context={context} componentId={component.id} />;
    case 'checklist':
      return <ChecklistBlock props={component.props} context={context} />;
    case 'counter':
      return <CounterBlock props={component.props} context={context} componentId={component.id} />;
    case 'stat':
      return <StatBlock props={component.props} context={context} />;
    case 'chart':
      return <ChartBlock props={component.props} context={context} />;
    case 'timer':
      return <TimerBlock props={component.props} context={context} componentId={component.id} />;
    case 'divider':
      return <DividerBlock />;
    case 'link':
      return <LinkBlock props={component.props} />;
    case 'ai':
      return (
        <Suspense fallback={partLoading()}>
          <AiBlock props={component.props} context={context} />
        </Suspense>
      );
    case 'invalid':
      return (
        <InvalidPlaceholder problem={component.problem} originalType={component.originalType} />
      );
    default:
      // A type this build does not know (a newer schema): a placeholder, never a crash.
      return <InvalidPlaceholder problem="this kind of component is not known." />;
  }
}
