import { Card } from '../../ui/card';
import { Page, Section } from '../../ui/page';
import { Segmented } from '../../ui/segmented';
import { THEME_OPTIONS, useThemePreference } from '../shell/theme-preference';
import { SignInRequired } from './sign-in-required';

const ACCOUNT_SECTIONS = [
  {
    icon: '✉️',
    title: 'Email',
    body: 'Change your email address; the new one is confirmed by a link.',
  },
  { icon: '🔑', title: 'Password', body: 'Change your password with your current one.' },
  {
    icon: '💻',
    title: 'Active sessions',
    body: 'See where you are signed in; sign out one device or all others.',
  },
  { icon: '📦', title: 'Export your data', body: 'Download your profile and apps as JSON.' },
  {
    icon: '🗑️',
    title: 'Delete account',
    body: 'Remove your account and apps; your username is freed after 30 days.',
  },
] as const;

/** `/account/settings`: email, password, sessions, appearance, storage, export, delete. */
export function AccountSettingsPage() {
  const [theme, setTheme] = useThemePreference();
  return (
    <Page title="Settings">
      <SignInRequired what="your account settings" />
      <Section title="Appearance" id="appearance">
        <p>Choose how Pipit looks on this device.</p>
        <Segmented label="Colour theme" options={THEME_OPTIONS} value={theme} onChange={setTheme} />
      </Section>
      <Section title="Account" id="account">
        <div className="grid">
          {ACCOUNT_SECTIONS.map((s) => (
            <Card key={s.title} icon={s.icon} title={s.title}>
              {s.body}
            </Card>
          ))}
        </div>
      </Section>
    </Page>
  );
}
