import {
  addReminder,
  LIMITS,
  moveReminder,
  type Reminder,
  removeReminder,
  setReminder,
} from '@pipit/app-definition';
import { useEffect, useId, useState } from 'react';
import { Button } from '../../../ui/button';
import { ConfirmDeleteButton } from '../common/confirm-delete-button';
import { DraftText } from '../common/draft-fields';
import { newId, useEditor } from '../common/editor-context';
import { Icon } from '../common/icons';
import { SortableRows } from '../common/sortable-rows';
import { ScheduleFields } from './schedule-fields';
import { scheduleSentence, storedProblem, textProblem } from './schedule-form';
import './reminders.css';

/**
 * The app's reminders (docs/product/reminders.md): the list in the order visitors see it, each in
 * words, and the open one's title, text and schedule below. Every change is a document operation,
 * so it syncs, works offline and undoes like any other edit.
 */
export function RemindersPanel() {
  const { definition, handle, readOnly, reminderId, openReminder } = useEditor();
  const limitId = useId();
  const reminders = definition.reminders;
  const collections = definition.collections;
  const open = reminders.find((r) => r.id === reminderId) ?? reminders[0] ?? null;
  const atLimit = reminders.length >= LIMITS.reminders;
  // A reminder just added: its title is focused, ready to be named.
  const [justAdded, setJustAdded] = useState<string | null>(null);

  const add = () => {
    const id = handle.edit(addReminder, newId, { title: `Reminder ${reminders.length + 1}` });
    if (!id) return;
    setJustAdded(id);
    openReminder(id);
  };

  return (
    <div className="properties-panel reminders-panel">
      <div className="editor-section__header">
        <h2 className="editor-section__title">
          Reminders{' '}
          <span className="reminders-panel__count">
            {reminders.length} of {LIMITS.reminders}
          </span>
        </h2>
        {readOnly ? null : (
          <Button
            size="small"
            variant="secondary"
            disabled={atLimit}
            aria-describedby={atLimit ? limitId : undefined}
            onClick={add}
          >
            + Add reminder
          </Button>
        )}
      </div>
      <p className="editor-muted">
        Visitors choose their own time and turn each reminder on in the installed app.
      </p>
      {atLimit && !readOnly ? (
        <p className="editor-muted" id={limitId}>
          An app can have at most {LIMITS.reminders} reminders. Delete one to add another.
        </p>
      ) : null}
      {reminders.length === 0 ? (
        <p className="reminders-panel__empty">
          No reminders yet. A reminder brings people back at the right moment: “Log your habits”
          every evening, or the day before an event in a collection.
        </p>
      ) : (
        <SortableRows
          items={reminders}
          label="Reminders"
          nameOf={(r) => r.title}
          disabled={readOnly}
          onMove={(id, index) => handle.edit(moveReminder, id, index)}
          rowClassName={(r) => (r.id === open?.id ? 'is-selected' : '')}
          renderItem={(reminder) => (
            <button
              type="button"
              className="tree-row__select reminder-row"
              aria-current={reminder.id === open?.id ? 'true' : undefined}
              onClick={() => openReminder(reminder.id)}
            >
              <span className="reminder-row__icon" aria-hidden="true">
                <Icon name="bell" />
              </span>
              <span className="reminder-row__text">
                <span className="reminder-row__title" dir="auto" title={reminder.title}>
                  {reminder.title}
                </span>
                <span className="reminder-row__when">
                  {scheduleSentence(reminder.schedule, collections)}
                </span>
                {storedProblem(reminder.schedule, collections) ? (
                  <span className="reminder-row__problem">Needs a fix before publishing</span>
                ) : null}
              </span>
            </button>
          )}
        />
      )}
      {open ? (
        <ReminderEditor
          key={open.id}
          reminder={open}
          focusTitle={justAdded === open.id}
          onFocused={() => setJustAdded(null)}
        />
      ) : null}
    </div>
  );
}

/** The open reminder: its title, text and schedule, and deleting it. */
function ReminderEditor({
  reminder,
  focusTitle,
  onFocused,
}: {
  reminder: Reminder;
  focusTitle: boolean;
  onFocused(): void;
}) {
  const { handle, readOnly } = useEditor();
  const headingId = useId();
  const titleId = useId();
  useEffect(() => {
    if (!focusTitle) return;
    const input = document.getElementById(titleId);
    if (input instanceof HTMLInputElement) {
      input.focus();
      input.select();
    }
    onFocused();
  }, [focusTitle, onFocused, titleId]);
  return (
    <section className="reminder-editor" aria-labelledby={headingId}>
      <h3 className="properties-section__title" id={headingId} dir="auto">
        {reminder.title}
      </h3>
      <DraftText
        id={titleId}
        label="Title"
        value={reminder.title}
        disabled={readOnly}
        hint="The notification’s first line."
        validate={(title) => textProblem('title', title)}
        onCommit={(title) => handle.edit(setReminder, reminder.id, { title })}
      />
      <DraftText
        label="Text"
        value={reminder.body}
        disabled={readOnly}
        multiline
        rows={2}
        hint="Optional, under the title."
        validate={(body) => textProblem('body', body)}
        onCommit={(body) => handle.edit(setReminder, reminder.id, { body })}
      />
      <ScheduleFields reminder={reminder} />
      <ConfirmDeleteButton
        label="Delete reminder"
        title={`Delete “${reminder.title}”?`}
        body="Visitors who turned it on stop getting it. You can undo this."
        confirmLabel="Delete reminder"
        onConfirm={() => handle.edit(removeReminder, reminder.id)}
      />
    </section>
  );
}
