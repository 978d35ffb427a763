import { appListResponseSchema, MAX_PINNED_APPS } from '@pipit/protocol';
import { useApiGet } from '../../platform/api/use-api-get';

/**
 * Which of the person's public published apps their profile shows first, in the order ticked.
 * Only those apps can show on a profile, so only those are offered.
 */
export function PinnedAppsField({
  value,
  onChange,
  error,
}: {
  value: string[];
  onChange: (next: string[]) => void;
  error?: string | undefined;
}) {
  const apps = useApiGet('/api/apps', appListResponseSchema);
  const listed =
    apps.status === 'ready'
      ? apps.data.apps.filter(
          (a) =>
            a.role === 'owner' &&
            a.visibility === 'public' &&
            a.publishedVersion !== null &&
            !a.archived,
        )
      : [];
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...value, id] : value.filter((pinned) => pinned !== id));

  return (
    <fieldset className="links-editor" aria-describedby="pinned-apps-hint">
      <legend className="field__label">Pinned apps</legend>
      <p className="field__hint" id="pinned-apps-hint">
        {apps.status === 'loading'
          ? 'Loading your apps…'
          : apps.status === 'error'
            ? `Your apps could not be loaded: ${apps.message}`
            : listed.length === 0
              ? 'Publish an app publicly and you can pin it here, above your other apps.'
              : `Shown first on your profile, in the order you tick them (up to ${MAX_PINNED_APPS}).`}
      </p>
      {listed.map((app) => {
        const position = value.indexOf(app.id);
        return (
          <label className="checkbox" key={app.id}>
            <input
              type="checkbox"
              checked={position >= 0}
              disabled={position < 0 && value.length >= MAX_PINNED_APPS}
              onChange={(e) => toggle(app.id, e.target.checked)}
            />
            <span>
              {app.title}
              {position >= 0 ? ` (pinned ${position + 1})` : ''}
            </span>
          </label>
        );
      })}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}
