import { Button } from '../../ui/button';
import { TextArea, TextField } from '../../ui/field';
import { Page } from '../../ui/page';
import { SignInRequired } from './sign-in-required';

/** `/account/edit`: avatar, display name, username, bio, links, pinned apps. */
export function AccountEditPage() {
  return (
    <Page
      title="Edit profile"
      lead="How you appear on your public profile. Changes made offline are sent when you reconnect."
      width="narrow"
    >
      <SignInRequired what="your profile" />
      <form onSubmit={(e) => e.preventDefault()}>
        <fieldset disabled className="form-fieldset">
          <legend className="visually-hidden">Profile</legend>
          <TextField label="Display name" name="displayName" maxLength={60} />
          <TextField
            label="Username"
            name="username"
            hint="Your profile’s address. Changing it frees the old one for others."
          />
          <TextArea label="Bio" name="bio" maxLength={280} hint="Up to 280 characters." />
          <TextField label="Link" name="link" type="url" hint="Up to 5 links, http or https." />
          <Button type="submit">Save profile</Button>
        </fieldset>
      </form>
    </Page>
  );
}
