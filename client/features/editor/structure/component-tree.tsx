import {
  addComponent,
  COMPONENT_TYPES,
  type ComponentType,
  LIMITS,
  moveComponent,
  type ReadComponent,
  removeComponent,
} from '@pipit/app-definition';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { buttonClass } from '../../../ui/button';
import { newId, useEditor } from '../common/editor-context';
import { COMPONENT_LABELS, componentSummary } from '../common/labels';
import { PeerMarks } from '../common/presence';
import { SortableRows } from '../common/sortable-rows';
import { isTyping } from '../common/typing';
import { Icon } from '../common/icons';

/** Focuses the select button of the row at `index` (or the last row) once React has rendered. */
function focusRow(container: HTMLElement | null, index: number) {
  requestAnimationFrame(() => {
    const rows = container?.querySelectorAll<HTMLElement>('.tree-row__select');
    if (!rows || rows.length === 0) {
      container?.querySelector<HTMLElement>('.add-menu__toggle')?.focus();
      return;
    }
    rows[Math.min(index, rows.length - 1)]?.focus();
  });
}

function componentName(component: ReadComponent): string {
  const { name, detail } = componentSummary(component);
  return nameWithDetail(name, detail);
}

const nameWithDetail = (name: string, detail: string) => (detail ? `${name}: ${detail}` : name);

/** The selected screen's components: add, select, reorder, duplicate, delete. */
export function ComponentTree() {
  const { screen, component, selectComponent, duplicateComponent, readOnly, handle } = useEditor();
  const treeRef = useRef<HTMLElement>(null);
  const components = screen.components;

  const remove = (target: ReadComponent) => {
    const index = components.findIndex((c) => c.id === target.id);
    handle.edit(removeComponent, target.id);
    if (component?.id === target.id) selectComponent(null);
    focusRow(treeRef.current, index);
  };
  // Delete and Backspace act on the selected component only while focus is in this list.
  const onKeyDown = (event: KeyboardEvent) => {
    if (readOnly || !component || isTyping(event.target)) return;
    if (event.key !== 'Delete' && event.key !== 'Backspace') return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    remove(component);
  };

  return (
    <section
      className="editor-section"
      aria-labelledby="editor-components-title"
      ref={treeRef}
      onKeyDown={onKeyDown}
    >
      <div className="editor-section__header">
        <h2 className="editor-section__title" id="editor-components-title">
          Components{' '}
          <span className="editor-muted">
            on <bdi>{screen.title}</bdi>
          </span>
        </h2>
      </div>
      {readOnly ? null : <AddComponentMenu />}
      {components.length === 0 ? (
        <p className="editor-muted">This screen is empty. Add a component to start.</p>
      ) : null}
      <SortableRows
        // Another screen is another list: it starts again from its first rows.
        key={screen.id}
        items={components}
        label={`Components on ${screen.title}`}
        nameOf={componentName}
        disabled={readOnly}
        onMove={(id, index) => handle.edit(moveComponent, id, index)}
        rowClassName={(c) => (c.id === component?.id ? 'is-selected' : '')}
        shownId={component?.id}
        renderItem={(item) => (
          <ComponentRow
            component={item}
            onDuplicate={() => duplicateComponent(item.id)}
            onDelete={() => remove(item)}
          />
        )}
      />
    </section>
  );
}

function ComponentRow({
  component,
  onDuplicate,
  onDelete,
}: {
  component: ReadComponent;
  onDuplicate(): void;
  onDelete(): void;
}) {
  const { component: selected, selectComponent, readOnly, peers } = useEditor();
  const { name, detail } = componentSummary(component);
  const here = peers.filter(
    (p) => p.selection?.kind === 'component' && p.selection.id === component.id,
  );
  const icon = component.type === 'invalid' ? '⚠' : COMPONENT_LABELS[component.type].icon;
  const label = nameWithDetail(name, detail);
  return (
    <div className="tree-row">
      <button
        type="button"
        className="tree-row__select"
        aria-current={selected?.id === component.id ? 'true' : undefined}
        onClick={() => selectComponent(component.id)}
      >
        <span className="tree-row__icon" aria-hidden="true">
          {icon}
        </span>
        <span className="tree-row__name tree-row__name--parts" title={label}>
          <span>{name}</span>
          {detail ? (
            <>
              {' '}
              <bdi className="tree-row__detail tree-row__text">{detail}</bdi>
            </>
          ) : null}
        </span>
        <PeerMarks peers={here} />
      </button>
      {readOnly ? null : (
        <span className="tree-row__actions">
          <button
            type="button"
            className="icon-button"
            aria-label={`Duplicate ${label}`}
            title="Duplicate (Ctrl+D)"
            onClick={onDuplicate}
          >
            <Icon name="copy" />
          </button>
          <button
            type="button"
            className="icon-button icon-button--danger"
            aria-label={`Delete ${label}`}
            title="Delete (Delete)"
            onClick={onDelete}
          >
            <Icon name="trash" />
          </button>
        </span>
      )}
    </div>
  );
}

/** "Add component": a disclosure with every component type. */
function AddComponentMenu() {
  const { screen, component, selectComponent, handle } = useEditor();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const atLimit = screen.components.length >= LIMITS.componentsPerScreen;
  const add = (type: ComponentType) => {
    // After the selected component, or at the end.
    const after = component ? screen.components.findIndex((c) => c.id === component.id) : -1;
    const index = after >= 0 ? after + 1 : Infinity;
    // A new heading starts at the largest size (level 1). The runtime renders every heading as
    // an h3 under the screen's title, so the level picks the size, not the outline.
    const props = type === 'heading' ? { level: 1 } : {};
    const id = handle.edit(addComponent, newId, screen.id, type, index, props);
    setOpen(false);
    if (id) selectComponent(id);
  };
  return (
    <div
      className="add-menu"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.preventDefault();
          setOpen(false);
          toggleRef.current?.focus();
        }
      }}
    >
      <button
        type="button"
        ref={toggleRef}
        className={`${buttonClass('primary', 'small')} add-menu__toggle`}
        aria-expanded={open}
        aria-controls={menuId}
        disabled={atLimit}
        title={
          atLimit
            ? `A screen can have at most ${LIMITS.componentsPerScreen} components.`
            : undefined
        }
        onClick={() => setOpen(!open)}
      >
        + Add component
      </button>
      <ul className="add-menu__list" id={menuId} hidden={!open} aria-label="Component types">
        {COMPONENT_TYPES.map((type) => (
          <li key={type}>
            <button type="button" className="add-menu__item" onClick={() => add(type)}>
              <span className="add-menu__icon" aria-hidden="true">
                {COMPONENT_LABELS[type].icon}
              </span>
              {COMPONENT_LABELS[type].name}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
