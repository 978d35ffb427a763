import {
  addScreen,
  duplicateScreen,
  LIMITS,
  MISSING_SCREEN_ID,
  moveScreen,
  type ReadScreen,
  removeScreen,
  setScreen,
} from '@pipit/app-definition';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { newId, useEditor } from '../common/editor-context';
import { PeerMarks } from '../common/presence';
import { SortableRows } from '../common/sortable-rows';
import { Icon } from '../common/icons';
import { screenTitleProblem } from '../common/validation';

/** The app's screens: select, add, rename, reorder, duplicate, delete (with confirmation). */
export function ScreensPanel() {
  const { definition, handle, screen, selectScreen, readOnly, confirm } = useEditor();
  const [renaming, setRenaming] = useState<string | null>(null);
  const screens = definition.screens.filter((s) => s.id !== MISSING_SCREEN_ID);
  const atLimit = screens.length >= LIMITS.screens;

  const add = () => {
    const id = handle.edit(addScreen, newId, { title: `Screen ${screens.length + 1}` });
    if (id) selectScreen(id);
  };

  return (
    <section className="editor-section" aria-labelledby="editor-screens-title">
      <div className="editor-section__header">
        <h2 className="editor-section__title" id="editor-screens-title">
          Screens
        </h2>
        {readOnly ? null : (
          <Button
            size="small"
            variant="secondary"
            onClick={add}
            disabled={atLimit}
            title={atLimit ? `An app can have at most ${LIMITS.screens} screens.` : undefined}
          >
            + Add screen
          </Button>
        )}
      </div>
      {definition.screens.some((s) => s.id === MISSING_SCREEN_ID) ? (
        <p className="editor-muted">This app has no screens left. Add one to start again.</p>
      ) : null}
      <SortableRows
        items={screens}
        label="Screens"
        nameOf={(s) => s.title}
        disabled={readOnly}
        onMove={(id, index) => handle.edit(moveScreen, id, index)}
        rowClassName={(s) => (s.id === screen.id ? 'is-selected' : '')}
        renderItem={(item) =>
          renaming === item.id ? (
            <RenameScreen screen={item} onDone={() => setRenaming(null)} />
          ) : (
            <ScreenRow
              screen={item}
              onRename={() => setRenaming(item.id)}
              onDuplicate={() => {
                const id = handle.edit(duplicateScreen, newId, item.id);
                if (id) selectScreen(id);
              }}
              onDelete={() =>
                confirm({
                  title: `Delete “${item.title}”?`,
                  body: `The screen and its ${item.components.length} ${
                    item.components.length === 1 ? 'component' : 'components'
                  } will be deleted. You can undo this.`,
                  confirmLabel: 'Delete screen',
                  onConfirm: () => handle.edit(removeScreen, item.id),
                })
              }
            />
          )
        }
      />
    </section>
  );
}

function ScreenRow({
  screen,
  onRename,
  onDuplicate,
  onDelete,
}: {
  screen: ReadScreen;
  onRename(): void;
  onDuplicate(): void;
  onDelete(): void;
}) {
  const { screen: selected, selectScreen, readOnly, peers } = useEditor();
  const here = peers.filter(
    (p) =>
      (p.selection?.kind === 'screen' && p.selection.id === screen.id) ||
      (p.selection?.kind === 'component' && p.selection.screenId === screen.id),
  );
  return (
    <div className="tree-row">
      <button
        type="button"
        className="tree-row__select"
        aria-current={selected.id === screen.id ? 'true' : undefined}
        onClick={() => selectScreen(screen.id)}
      >
        <span className="tree-row__icon" aria-hidden="true">
          {screen.icon}
        </span>
        <span className="tree-row__name" dir="auto" title={screen.title}>
          {screen.title}
        </span>
        <PeerMarks peers={here} />
      </button>
      {readOnly ? null : (
        <span className="tree-row__actions">
          <button
            type="button"
            className="icon-button"
            aria-label={`Rename ${screen.title}`}
            title="Rename"
            onClick={onRename}
          >
            <Icon name="pencil" />
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={`Duplicate ${screen.title}`}
            title="Duplicate"
            onClick={onDuplicate}
          >
            <Icon name="copy" />
          </button>
          <button
            type="button"
            className="icon-button icon-button--danger"
            aria-label={`Delete ${screen.title}`}
            title="Delete"
            onClick={onDelete}
          >
            <Icon name="trash" />
          </button>
        </span>
      )}
    </div>
  );
}

function RenameScreen({ screen, onDone }: { screen: ReadScreen; onDone(): void }) {
  const { handle } = useEditor();
  const [title, setTitle] = useState(screen.title);
  const [icon, setIcon] = useState(screen.icon);
  const problem = screenTitleProblem(title);
  const iconProblem =
    icon.trim() === '' || icon.length > LIMITS.screenIconLength
      ? 'Use one emoji (or a few characters).'
      : null;
  const save = () => {
    if (problem || iconProblem) return;
    handle.edit(setScreen, screen.id, { title: title.trim(), icon: icon.trim() });
    onDone();
  };
  return (
    <form
      className="rename-form"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onDone();
        }
      }}
    >
      <div className="rename-form__inputs">
        <label className="rename-form__field rename-form__field--icon">
          <span className="visually-hidden">Icon of {screen.title}</span>
          <input
            className="field__control"
            value={icon}
            onChange={(e) => setIcon(e.target.value)}
            aria-invalid={iconProblem ? true : undefined}
          />
        </label>
        <label className="rename-form__field">
          <span className="visually-hidden">Title of {screen.title}</span>
          <input
            className="field__control"
            value={title}
            autoFocus
            onChange={(e) => setTitle(e.target.value)}
            aria-invalid={problem ? true : undefined}
          />
        </label>
      </div>
      {problem || iconProblem ? (
        <p className="field__error" role="alert">
          {problem ?? iconProblem}
        </p>
      ) : null}
      <div className="rename-form__buttons">
        <Button type="submit" size="small" disabled={Boolean(problem || iconProblem)}>
          Save
        </Button>
        <Button size="small" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
