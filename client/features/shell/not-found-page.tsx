import { Link, useRouterState } from '@tanstack/react-router';
import { ButtonLink } from '../../ui/button-link';
import { Page } from '../../ui/page';

/** Unknown paths (docs/product/routes.md): what happened and where to go instead. */
export function NotFoundPage() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    <Page
      eyebrow="Error 404"
      title="Page not found"
      lead={
        <>
          There is no page at <code>{pathname}</code>. The link may be mistyped, or the page may
          have moved.
        </>
      }
      width="prose"
    >
      <div className="stack">
        <div className="row">
          <ButtonLink to="/">Go to the home page</ButtonLink>
          <ButtonLink to="/explore" variant="secondary">
            Explore apps
          </ButtonLink>
        </div>
        <p>
          Looking for someone’s profile? Profiles live at <code>/their-username</code>. Need help?
          Read the <Link to="/faq">FAQ</Link> or <Link to="/contact">contact us</Link>.
        </p>
      </div>
    </Page>
  );
}
