import { Link } from '@tanstack/react-router';
import {
  type Account,
  accountSchema,
  AVATAR_UPLOAD_TYPES,
  type UpdateProfileRequest,
} from '@pipit/protocol';
import { type FormEvent, type Ref, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { TextArea, TextField } from '../../ui/field';
import { Notice } from '../../ui/notice';
import { FORM_ERROR_ATTRIBUTE, focusAfterTry } from '../../ui/online-form';
import { Page, Section } from '../../ui/page';
import { useOnlineStatus } from '../../ui/use-online-status';
import { apiSend, apiUpload, describeError } from '../../platform/api/request';
import { useSubmit } from '../../platform/api/use-submit';
import { enqueue, useOutbox } from '../../platform/outbox/outbox';
import { PinnedAppsField } from './pinned-apps-field';
import { setAccount, useSession } from '../../platform/session/session';
import { useUsernameAvailability } from './use-username-availability';
import './account-pages.css';

const accountResponse = z.object({ account: accountSchema });
const MAX_LINKS = 5;

type ProfileForm = Required<Omit<UpdateProfileRequest, 'avatar'>>;
type EmojiAvatar = { kind: 'emoji'; emoji: string; color: string };
const DEFAULT_EMOJI: EmojiAvatar = { kind: 'emoji', emoji: '🐦', color: '#1a7f5a' };
/** Where the last save went: to the server, or onto this device while offline. */
type Saved = 'server' | 'device' | null;

/**
 * The fields that differ from the account: only those are sent. The emoji avatar counts only
 * once the person edits it, so an uploaded picture is never replaced by accident.
 */
function changes(
  account: Account,
  form: ProfileForm,
  avatar: EmojiAvatar | null,
): UpdateProfileRequest {
  const patch: UpdateProfileRequest = {};
  if (form.displayName !== account.displayName) patch.displayName = form.displayName;
  if (form.username.trim().toLowerCase() !== account.username) patch.username = form.username;
  if (form.bio !== account.bio) patch.bio = form.bio;
  if (JSON.stringify(form.links) !== JSON.stringify(account.links)) patch.links = form.links;
  if (JSON.stringify(form.pinnedAppIds) !== JSON.stringify(account.pinnedAppIds)) {
    patch.pinnedAppIds = form.pinnedAppIds;
  }
  if (avatar && JSON.stringify(avatar) !== JSON.stringify(account.avatar)) patch.avatar = avatar;
  return patch;
}

function AvatarEditor({ account }: { account: Account }) {
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const online = useOnlineStatus();
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    setError(null);
    try {
      const { account: updated } = await apiUpload('/api/account/avatar', file, accountResponse);
      setAccount(updated);
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setUploading(false);
    }
  };
  return (
    <div className="avatar-editor">
      <Avatar avatar={account.avatar} size={72} label="Your avatar" />
      <div className="stack">
        <label className="field__label" htmlFor="avatar-upload">
          Upload a picture
        </label>
        <input
          id="avatar-upload"
          type="file"
          accept={AVATAR_UPLOAD_TYPES.join(',')}
          disabled={uploading || !online}
          onChange={(e) => void upload(e.target.files?.[0])}
        />
        <p className="field__hint">
          {uploading
            ? 'Uploading…'
            : online
              ? 'PNG, JPEG, WebP or GIF, up to 5 MB. It is cropped to a square.'
              : 'Uploading a picture needs a connection.'}
        </p>
        {error ? (
          <p className="field__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** The form as the account has it, before any edit. */
function formOf(account: Account): ProfileForm {
  return {
    displayName: account.displayName,
    username: account.username,
    bio: account.bio,
    links: account.links,
    pinnedAppIds: account.pinnedAppIds,
  };
}

/** `/account/edit`: how you appear on your public profile. Offline, changes wait on the device. */
export function AccountEditPage() {
  const { account } = useSession();
  const online = useOnlineStatus();
  const queued = useOutbox('profile');
  const [form, setForm] = useState<ProfileForm | null>(null);
  const [avatarEdit, setAvatarEdit] = useState<EmojiAvatar | null>(null);
  const [saved, setSaved] = useState<Saved>(null);
  const save = useSubmit((patch: UpdateProfileRequest) =>
    apiSend('PATCH', '/api/account/profile', patch, accountResponse),
  );
  const current: ProfileForm | null = form ?? (account ? formOf(account) : null);
  const availability = useUsernameAvailability(current?.username ?? '', account?.username);
  const { formRef, savedRef, sending } = useSaveFocus(saved, save.pending, save.error);
  if (!account || !current) return null;

  const update = (next: Partial<ProfileForm>) => {
    setSaved(null);
    setForm({ ...current, ...next });
  };
  const emoji = avatarEdit ?? (account.avatar.kind === 'emoji' ? account.avatar : DEFAULT_EMOJI);
  const editAvatar = (next: Partial<EmojiAvatar>) => {
    setSaved(null);
    setAvatarEdit({ ...emoji, ...next });
  };
  const patch = changes(account, current, avatarEdit);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (Object.keys(patch).length === 0) return;
    if (!online) {
      enqueue('profile', patch);
      setSaved('device');
      return;
    }
    sending();
    const result = await save.submit(patch);
    if (result) {
      setAccount(result.account);
      setForm(null);
      setAvatarEdit(null);
      setSaved('server');
    }
  };

  return (
    <Page
      title="Edit profile"
      lead={
        <>
          How you appear on{' '}
          <Link to="/$username" params={{ username: account.username }}>
            your public profile
          </Link>
          .
        </>
      }
      width="narrow"
    >
      {queued.length > 0 ? (
        <Notice tone="offline" title="Waiting to sync">
          Your latest profile changes are saved on this device and will be sent when you are back
          online.
        </Notice>
      ) : null}

      <Section title="Picture" id="picture">
        <AvatarEditor account={account} />
      </Section>

      <form ref={formRef} noValidate onSubmit={(e) => void onSubmit(e)}>
        <fieldset className="form-fieldset" disabled={save.pending}>
          <legend className="visually-hidden">Profile</legend>
          <EmojiFields emoji={emoji} onChange={editAvatar} />
          <TextField
            label="Display name"
            name="displayName"
            maxLength={60}
            value={current.displayName}
            onChange={(e) => update({ displayName: e.target.value })}
            error={save.fields.displayName}
          />
          <UsernameField
            value={current.username}
            onChange={(username) => update({ username })}
            availability={availability}
            error={save.fields.username}
          />
          <TextArea
            label="Bio"
            name="bio"
            maxLength={280}
            value={current.bio}
            onChange={(e) => update({ bio: e.target.value })}
            hint={`${280 - current.bio.length} characters left.`}
            error={save.fields.bio}
          />
          <LinksEditor
            links={current.links}
            onChange={(links) => update({ links })}
            errors={save.fields}
          />
          <PinnedAppsField
            value={current.pinnedAppIds}
            onChange={(pinnedAppIds) => update({ pinnedAppIds })}
            error={save.fields.pinnedAppIds}
          />
          <SaveProfileFooter
            error={save.error}
            pending={save.pending}
            unchanged={Object.keys(patch).length === 0}
            online={online}
            saved={saved}
            savedRef={savedRef}
          />
        </fieldset>
      </form>
    </Page>
  );
}

/**
 * On a phone the confirmation at the top of the page was out of view, and the saved
 * form's button turns disabled under the focus. Both messages sit by the button; a save focuses
 * its confirmation (read as a status), a refused one the first field to fix or the error. Call
 * `sending` as a save is sent.
 */
function useSaveFocus(saved: Saved, pending: boolean, error: string | null) {
  const formRef = useRef<HTMLFormElement>(null);
  const savedRef = useRef<HTMLParagraphElement>(null);
  const tryingRef = useRef(false);
  useEffect(() => {
    if (saved) savedRef.current?.focus();
  }, [saved]);
  useEffect(() => {
    if (pending || !tryingRef.current || !formRef.current) return;
    tryingRef.current = false;
    if (error) focusAfterTry(formRef.current);
  }, [pending, error]);
  const sending = () => {
    tryingRef.current = true;
  };
  return { formRef, savedRef, sending };
}

/** The profile's address, said to be free or taken as it is typed; `error` is the server's. */
function UsernameField({
  value,
  onChange,
  availability,
  error,
}: {
  value: string;
  onChange(username: string): void;
  availability: ReturnType<typeof useUsernameAvailability>;
  error: string | undefined;
}) {
  return (
    <TextField
      label="Username"
      name="username"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hint={
        availability?.available
          ? `✓ /${availability.username} is free.`
          : 'Your profile’s address. Changing it frees the old one for others.'
      }
      error={error ?? (availability && !availability.available ? availability.reason : undefined)}
    />
  );
}

/** The form's error, Save, and where the profile was saved (focused, see `useSaveFocus`). */
function SaveProfileFooter({
  error,
  pending,
  unchanged,
  online,
  saved,
  savedRef,
}: {
  error: string | null;
  pending: boolean;
  /** Nothing differs from the account: nothing to save. */
  unchanged: boolean;
  online: boolean;
  saved: Saved;
  savedRef: Ref<HTMLParagraphElement>;
}) {
  return (
    <>
      {error ? (
        <div tabIndex={-1} {...{ [FORM_ERROR_ATTRIBUTE]: '' }}>
          <Notice tone="danger" live="alert">
            {error}
          </Notice>
        </div>
      ) : null}
      <Button type="submit" disabled={pending || unchanged}>
        {pending ? 'Saving…' : online ? 'Save profile' : 'Save on this device'}
      </Button>
      <p className="field__hint profile-saved" role="status" tabIndex={-1} ref={savedRef}>
        {saved === 'server'
          ? 'Your profile is saved.'
          : saved === 'device'
            ? 'Saved on this device. It will be sent when you are back online.'
            : null}
      </p>
    </>
  );
}

/** The emoji avatar: used when there is no picture, or instead of it once edited. */
function EmojiFields({
  emoji,
  onChange,
}: {
  emoji: EmojiAvatar;
  onChange(next: Partial<EmojiAvatar>): void;
}) {
  return (
    <div className="row">
      <TextField
        label="Emoji"
        name="emoji"
        maxLength={16}
        value={emoji.emoji}
        onChange={(e) => onChange({ emoji: e.target.value })}
        hint="Used when you have no picture, or instead of it if you change it."
      />
      <TextField
        label="Colour"
        name="color"
        type="color"
        value={emoji.color}
        onChange={(e) => onChange({ color: e.target.value })}
      />
    </div>
  );
}

/** Up to `MAX_LINKS` links, each a label and an address; `errors` are the server's, by field. */
function LinksEditor({
  links,
  onChange,
  errors,
}: {
  links: ProfileForm['links'];
  onChange(links: ProfileForm['links']): void;
  errors: Record<string, string>;
}) {
  return (
    <fieldset className="links-editor">
      <legend className="field__label">Links</legend>
      {links.map((link, index) => (
        <div className="links-editor__row" key={index}>
          <TextField
            label={`Link ${index + 1} label`}
            value={link.label}
            maxLength={40}
            onChange={(e) =>
              onChange(links.map((l, i) => (i === index ? { ...l, label: e.target.value } : l)))
            }
          />
          <TextField
            label={`Link ${index + 1} address`}
            type="url"
            inputMode="url"
            placeholder="https://"
            value={link.url}
            onChange={(e) =>
              onChange(links.map((l, i) => (i === index ? { ...l, url: e.target.value } : l)))
            }
            error={errors[`links.${index}.url`]}
          />
          <Button
            variant="ghost"
            size="small"
            onClick={() => onChange(links.filter((_, i) => i !== index))}
          >
            Remove link {index + 1}
          </Button>
        </div>
      ))}
      {links.length < MAX_LINKS ? (
        <Button
          variant="secondary"
          size="small"
          onClick={() => onChange([...links, { label: '', url: '' }])}
        >
          Add a link
        </Button>
      ) : (
        <p className="field__hint">That is the most: 5 links.</p>
      )}
      {errors.links ? <p className="field__error">{errors.links}</p> : null}
    </fieldset>
  );
}
