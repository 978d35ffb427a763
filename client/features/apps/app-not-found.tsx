import { ButtonLink } from '../../ui/button-link';
import { Page } from '../../ui/page';

/**
 * `/apps/{id}` and its sub-pages when the app does not exist here, or is private or unpublished and
 * the person is not one of its collaborators (docs/product/roles.md): the answer is the same, so it
 * reveals nothing.
 */
export function AppNotFound() {
  return (
    <Page eyebrow="App not found" title="This app isn’t available" width="prose">
      <p>
        There is no app at this address, or it is private and not shared with you. If someone sent
        you the link, ask them to check that the app is published and its visibility allows you in.
      </p>
      <div className="row">
        <ButtonLink to="/explore">Explore apps</ButtonLink>
        <ButtonLink to="/" variant="secondary">
          Go to the home page
        </ButtonLink>
      </div>
    </Page>
  );
}
