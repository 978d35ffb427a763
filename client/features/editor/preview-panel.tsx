import type { ReadDefinition, ReadScreen } from '@pipit/app-definition';
import { AppScreen, type PresenceMark } from '@pipit/runtime';
import {
  type RefObject,
  startTransition,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { Segmented } from '../../ui/segmented';
import { useThemePreference } from '../../platform/theme-preference';
import { useEditor } from './common/editor-context';
import { peerColor } from './common/presence';
import { useMediaQuery } from '../../ui/use-media-query';
import './preview-panel.css';

/** A phone's viewport, in CSS pixels: the preview is drawn at this size, then scaled to fit. */
const PHONE_WIDTH_PX = 390;
const PHONE_HEIGHT_PX = 780;
const MIN_SCALE = 0.4;

/**
 * Follows the width (and height, when it is bounded) of the panel: measured before the first paint
 * (one render more when it is not 1), then on every resize.
 */
function useFitScale(stage: RefObject<HTMLElement | null>) {
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    const element = stage.current;
    if (!element) return;
    const measure = () => {
      const style = getComputedStyle(element);
      const width =
        element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      const height =
        element.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
      const byWidth = width / PHONE_WIDTH_PX;
      // An unbounded panel (one panel at a time, on a phone) grows with its content: width only.
      const byHeight = element.dataset.fit === 'both' ? height / PHONE_HEIGHT_PX : Infinity;
      const next = Math.max(MIN_SCALE, Math.min(1, byWidth, byHeight));
      setScale((current) => (Math.abs(current - next) < 0.005 ? current : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [stage]);
  return scale;
}

/**
 * Components the preview draws at once: more than the phone shows. A longer screen draws the rest
 * when the person scrolls or moves focus into the phone, selects a component further down, or else
 * once the browser is idle, so the editor opens without waiting for what is out of view (`npm run
 * bench -- editor`).
 */
const FIRST_COMPONENTS = 30;

/** The definition the preview draws: the screen's first components only, until the rest is due. */
function useDrawnDefinition(
  definition: ReadDefinition,
  screen: ReadScreen,
  selectedId: string | null,
): { drawn: ReadDefinition; partial: boolean; drawAll(): void } {
  const [allOf, setAllOf] = useState<string | null>(null);
  const selectedIndex = selectedId ? screen.components.findIndex((c) => c.id === selectedId) : -1;
  const partial =
    allOf !== screen.id &&
    screen.components.length > FIRST_COMPONENTS &&
    selectedIndex < FIRST_COMPONENTS;
  // Once the whole screen is drawn, it stays so while the screen is shown.
  if (allOf !== screen.id && !partial) setAllOf(screen.id);
  const drawn = useMemo(
    () =>
      partial
        ? {
            ...definition,
            screens: definition.screens.map((s) =>
              s === screen ? { ...s, components: s.components.slice(0, FIRST_COMPONENTS) } : s,
            ),
          }
        : definition,
    [definition, screen, partial],
  );
  const screenId = screen.id;
  useEffect(() => {
    if (!partial) return;
    const drawRest = () => startTransition(() => setAllOf(screenId));
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(drawRest, 500);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(drawRest, { timeout: 2_000 });
    return () => cancelIdleCallback(idle);
  }, [partial, screenId]);
  return { drawn, partial, drawAll: () => setAllOf(screenId) };
}

/** The selected screen as it looks in the app, in a phone frame; clicking a component selects it. */
export function PreviewPanel({
  fitHeight,
  onComponentClick,
}: {
  /** Scale the phone to the panel's height too (side by side), not only its width. */
  fitHeight: boolean;
  onComponentClick?: (() => void) | undefined;
}) {
  const { definition, screen, component, selectComponent, selectScreen, peers } = useEditor();
  const stage = useRef<HTMLDivElement>(null);
  const scale = useFitScale(stage);
  const mode = usePreviewMode();
  const screenId = screen.id;
  const presence = useMemo(
    (): PresenceMark[] =>
      peers.flatMap((peer) =>
        peer.selection?.kind === 'component' && peer.selection.screenId === screenId
          ? [{ componentId: peer.selection.id, name: peer.name, color: peerColor(peer) }]
          : [],
      ),
    [peers, screenId],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const selectedId = component?.id ?? null;
  const { drawn, partial, drawAll } = useDrawnDefinition(definition, screen, selectedId);
  // The same element while what it shows is the same: the phone's scale (measured as the panel
  // lays out, and on every resize) changes the frame, not the screen's components.
  const screenView = useMemo(
    () => (
      <AppScreen
        definition={drawn}
        screenId={screenId}
        colorMode={mode.value}
        selectedComponentId={selectedId}
        onSelectComponent={(id) => {
          selectComponent(id);
          onComponentClick?.();
        }}
        presence={presence}
        onNavigate={(id) => {
          selectScreen(id);
          scrollRef.current?.scrollTo({ top: 0 });
        }}
      />
    ),
    [
      drawn,
      screenId,
      mode.value,
      selectedId,
      selectComponent,
      onComponentClick,
      presence,
      selectScreen,
    ],
  );
  return (
    <section className="editor-preview" aria-labelledby="editor-preview-title">
      <div className="editor-section__header editor-preview__header">
        <h2 className="editor-section__title" id="editor-preview-title">
          Preview
        </h2>
        {mode.choosable ? (
          <Segmented
            label="Preview colours"
            options={[
              { value: 'light', label: 'Light' },
              { value: 'dark', label: 'Dark' },
            ]}
            value={mode.value}
            onChange={mode.set}
          />
        ) : (
          <p className="editor-muted editor-preview__mode">Always {mode.value} (set in Theme)</p>
        )}
      </div>
      <div className="editor-preview__stage" ref={stage} data-fit={fitHeight ? 'both' : 'width'}>
        <div
          className="phone-frame"
          style={{ width: PHONE_WIDTH_PX * scale + 20, height: PHONE_HEIGHT_PX * scale + 20 }}
        >
          <div
            className="phone-frame__screen"
            ref={scrollRef}
            role="region"
            aria-label={`Preview of ${screen.title}`}
            tabIndex={0}
            onScroll={partial ? drawAll : undefined}
            onFocus={partial ? drawAll : undefined}
            style={{
              width: PHONE_WIDTH_PX,
              height: PHONE_HEIGHT_PX,
              transform: `scale(${scale})`,
            }}
          >
            {screenView}
          </div>
        </div>
      </div>
    </section>
  );
}

/**
 * The preview's colours: the theme's mode when it is fixed; when it is `auto` (the app follows the
 * device), the person may look at either, starting from what Pipit itself shows now.
 */
function usePreviewMode(): {
  value: 'light' | 'dark';
  choosable: boolean;
  set(value: 'light' | 'dark'): void;
} {
  const { definition } = useEditor();
  const [preference] = useThemePreference();
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const siteMode = preference === 'system' ? (systemDark ? 'dark' : 'light') : preference;
  const [chosen, setChosen] = useState<'light' | 'dark' | null>(null);
  const themeMode = definition.theme.mode;
  if (themeMode !== 'auto') return { value: themeMode, choosable: false, set: setChosen };
  return { value: chosen ?? siteMode, choosable: true, set: setChosen };
}
