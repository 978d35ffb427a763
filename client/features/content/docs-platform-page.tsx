import { DocsLayout } from './docs-layout';
import { AppDefinitionSection } from './docs-platform/app-definition-section';
import { ConceptsSections } from './docs-platform/concepts-sections';
import { PublishingSections } from './docs-platform/publishing-sections';
import { RestApiSection } from './docs-platform/rest-api-section';
import { SelfHostingSection } from './docs-platform/self-hosting-section';

const SECTIONS = [
  { id: 'overview', title: 'Overview' },
  { id: 'documents-and-ids', title: 'Documents and ids' },
  { id: 'how-sync-works', title: 'How sync works' },
  { id: 'the-app-definition', title: 'The app definition' },
  { id: 'publishing-visibility-and-roles', title: 'Publishing, visibility and roles' },
  { id: 'installable-apps', title: 'Installable apps' },
  { id: 'self-hosting', title: 'Self-hosting' },
  { id: 'rest-api', title: 'REST API' },
] as const;

/** `/docs/platform`: how Pipit works, from documents and sync to self-hosting and the REST API. */
export function DocsPlatformPage() {
  return (
    <DocsLayout
      title="Platform guide"
      lead="How Pipit stores, syncs, publishes and installs apps, how to host it, and its REST API."
    >
      <nav aria-label="On this page">
        <p>On this page:</p>
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ul>
      </nav>

      <ConceptsSections />
      <AppDefinitionSection />
      <PublishingSections />
      <SelfHostingSection />
      <RestApiSection />
    </DocsLayout>
  );
}
