/**
 * The style sheets of the public pages' own parts — explore, profiles, the landing page, the
 * docs, the app page, and the cards, fields and empty states they show; ~11 KB before
 * compression — imported by the site's entry (main.tsx, last), so they come in its one style
 * sheet. Imported only by the routes' code, each was a file of its own that a server-rendered or
 * pre-rendered page linked (`/explore` five), and a phone on HTTP/1.1 fetched them in a second
 * round of requests before it painted the page (docs/performance.md). The signed-in pages (the
 * editor, admin, the studio) keep theirs with their code.
 */
import './ui/app-card.css';
import './ui/app-icon.css';
import './ui/card.css';
import './ui/empty-state.css';
import './ui/field.css';
import './ui/prose.css';
import './features/apps/explore-page.css';
import './features/profiles/profile-page.css';
import './features/content/docs-layout.css';
import './features/landing/landing-page.css';
import './features/app-page/app-page.css';
