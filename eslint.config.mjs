// @ts-check
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The dependency direction (docs/README.md#conventions), as lint rules whose messages say what to
 * use instead: packages/* at the bottom; client/ and sync-server/ share only through packages/*;
 * inside client/, routes → features → platform → sync, and ui beside them. Flat config replaces a
 * rule's options per matching block rather than merging them, so each folder gets its complete list
 * from `restrict`.
 */
const SERVER = {
  regex: '(^@pipit/sync-server$)|(^|/)sync-server(/|$)',
  message:
    'The client never imports the server. Share code through packages/* (e.g. @pipit/protocol).',
};
const CLIENT = {
  regex: '(^@pipit/client$)|(^|/)client(/|$)',
  message:
    'The server never imports the client. Share code through packages/* (e.g. @pipit/protocol).',
};
const NODE_BUILTINS = {
  regex: '^node:',
  message: 'This code runs in the browser too: no Node built-ins here.',
};
const SYNC_LIBS = {
  regex: '^(yjs|y-indexeddb|@hocuspocus/provider)$',
  message:
    'Only client/sync/ touches yjs, y-indexeddb and the Hocuspocus provider. Use a hook from client/sync/.',
};
const ROUTES = {
  regex: '(^|/)routes/',
  message:
    'Routes sit on top: features, sync and ui never import a route. Move the shared piece down.',
};
const FEATURES = {
  regex: '(^|/)features/',
  message: 'Only routes import features. Move the shared piece into ui/, platform/ or sync/.',
};
const UI_FROM_SYNC = {
  regex: '(^|/)ui/',
  message: 'client/sync/ is headless: it must not import UI components.',
};
const SYNC_FROM_UI = {
  regex: '(^|/)sync/',
  message: 'client/ui/ is feature-agnostic and headless of sync: pass data in through props.',
};

// client/platform/: the services every feature uses (API client, session, outbox, error reporting,
// client config). It sits between features and sync: platform may import sync, never the reverse.
const PLATFORM_FROM_SYNC = {
  regex: '(^|/)platform/',
  message:
    'client/sync/ sits below client/platform/: it must not import it. Pass what it needs in as an argument.',
};
const PLATFORM_FROM_UI = {
  regex: '(^|/)platform/',
  message: 'client/ui/ is presentational: pass data and callbacks in through props.',
};
const UI_FROM_PLATFORM = {
  regex: '(^|/)ui/',
  message: 'client/platform/ is headless: it must not import UI components.',
};
/**
 * Sub-folders by concern inside a wing, bottom to top: each may import the folders listed for it
 * (and its own); its README.md says what it owns. Relative paths leave a sub-folder with `../`, so
 * the folder is the next segment. `subfolderBlocks` gives one lint block per sub-folder, on top of
 * the wing's own list of patterns (flat config replaces a rule's options per block).
 *
 * @param {string} root the wing, e.g. 'client/sync'
 * @param {Record<string, string[]>} order each sub-folder and the sub-folders it may import
 * @param {Array<{regex: string, message: string}>} base the wing's own patterns
 * @param {string} [guide] where the folders are described (the wing's README.md by default)
 * @param {string} [noun] what a sub-folder is called in the messages
 */
const subfolderBlocks = (root, order, base, guide = `${root}/README.md`, noun = 'sub-folder') =>
  Object.entries(order).map(([folder, below]) => {
    const refused = Object.keys(order).filter(
      (other) => other !== folder && !below.includes(other),
    );
    const allowed = below.map((name) => `${name}/`).join(', ') || `no other ${noun}`;
    return {
      files: [`${root}/${folder}/**/*.{ts,tsx}`],
      rules: restrict(
        refused.length === 0
          ? base
          : [
              ...base,
              {
                regex: `^\\.\\./(${refused.join('|')})(/|$)`,
                message: `${root}/${folder}/ may import ${allowed} of ${root}/ (${guide}). Move the shared piece down into a folder both may import, or pass it in.`,
              },
            ],
      ),
    };
  });

/** client/sync/: core/ at the bottom, device/ on it, three document kinds, library/ on top. */
const SYNC_ORDER = {
  core: [],
  device: ['core'],
  'app-document': ['core', 'device'],
  spaces: ['core', 'device'],
  'visitor-data': ['core', 'device'],
  library: ['core', 'device', 'app-document', 'spaces', 'visitor-data'],
};
/** client/features/editor/: common/ at the bottom, the panels on it; the workspace composes them. */
const EDITOR_ORDER = {
  common: [],
  ai: ['common'],
  inspector: ['common', 'ai'],
  structure: ['common'],
  reminders: ['common'],
  history: ['common'],
  drafts: ['common'],
  publish: ['common'],
};

/**
 * A feature imports only platform/, sync/, ui/ and its own folder: never another feature. From a
 * feature's top level (`client/features/X/*`) a sibling feature is `../Y/…`; one folder deeper,
 * `../../Y/…`; `…/features/Y/…` is another feature however it is spelled.
 */
const OTHER_FEATURE_MESSAGE =
  'A feature imports only platform/, sync/, ui/ and its own folder. Move the shared piece into ui/ (presentational), platform/ (services) or sync/ (documents), or into the one feature that uses it; where a screen composes another feature, let the route compose them (or pass it in through props).';
const OTHER_FEATURE = { regex: '(^|/)features/', message: OTHER_FEATURE_MESSAGE };
const SIBLING_FEATURE = { regex: '^\\.\\./(?!\\.\\./)', message: OTHER_FEATURE_MESSAGE };
const SIBLING_FEATURE_FROM_SUBFOLDER = {
  regex: '^\\.\\./\\.\\./(?!\\.\\./)',
  message: OTHER_FEATURE_MESSAGE,
};

/**
 * Inside packages/, the order of their package.json dependencies: @pipit/protocol at the bottom,
 * @pipit/app-definition on top of it, @pipit/runtime on top of both.
 */
const APP_DEFINITION_FROM_PROTOCOL = {
  regex: '(^@pipit/app-definition(/|$))|(^|/)app-definition/',
  message: '@pipit/protocol is the bottom package: it imports no other @pipit/* package.',
};
const RUNTIME_FROM_BELOW = {
  regex: '(^@pipit/runtime(/|$))|(^|/)runtime/',
  message:
    '@pipit/runtime sits on top of @pipit/app-definition and @pipit/protocol: they never import it.',
};

/**
 * Inside @pipit/app-definition (`subfolderBlocks`; each folder's README.md says what it holds):
 * schema/ at the bottom; formula/ (computed fields' language) on it; document/ (the Yjs layout,
 * operations, reader) on both (renaming a field rewrites the formulas that name it); changes/, publish/ and visitor-data/ on document/, and all three
 * on formula/ too (a formula field checked before publishing, computed for a visitor's record,
 * the fields a changed formula names);
 * ai/ on publish/ and formula/; portable/ on changes/ and visitor-data/; templates/ on schema/
 * alone. Only src/index.ts, the package's one entry, imports ai/, portable/ and templates/;
 * formula/ is also the `./formula` entry, which the installed app loads only when it needs it.
 */
const DEFINITION_ORDER = {
  schema: [],
  formula: ['schema'],
  document: ['formula', 'schema'],
  changes: ['formula', 'document', 'schema'],
  publish: ['formula', 'document', 'schema'],
  'visitor-data': ['formula', 'document', 'schema'],
  ai: ['publish', 'formula', 'document', 'schema'],
  portable: ['changes', 'visitor-data', 'document', 'schema'],
  templates: ['schema'],
  csv: ['formula', 'schema'],
};

/**
 * The server's layers: http/ → services (accounts/, ai/, collab/, publishing/, monitoring/, pwa/) →
 * storage/. The modules directly in src/ (config, logger, service-error, origin, …) are shared by
 * all. Relative paths climb out of a layer's folder with `../`, so the layer is the next segment.
 */
const SERVER_HTTP = {
  regex: '^(\\.\\./)+http(/|$)',
  message:
    'Only http/ (and the server setup in src/) imports http/. Services throw a ServiceError (src/service-error.ts), and http/ answers it.',
};
const SERVER_SETUP = {
  regex: '^(\\.\\./)+server(/|$)',
  message:
    'sync-server/src/server/ builds the server out of everything else (create-server.ts): nothing it builds imports it. Pass what is needed in when it is built.',
};
const SERVER_SERVICES = {
  regex: '^(\\.\\./)+(accounts|ai|collab|history|portable|publishing|monitoring|pwa)(/|$)',
  message: 'storage/ is the bottom layer: it never imports a service. Pass what it needs in.',
};

/**
 * Among the server's services, the direction their imports already take: accounts/ at the bottom
 * (who someone is), publishing/ on it (who may see an app), then the services that use both.
 * Each may import only the services listed for it; storage/ and the modules directly in src/ are
 * open to all of them, http/ to none.
 */
const SERVICE_ORDER = {
  accounts: [],
  publishing: ['accounts'],
  monitoring: ['accounts'],
  pwa: ['accounts', 'publishing'],
  history: ['accounts', 'publishing'],
  ai: ['accounts', 'publishing'],
  collab: ['accounts', 'publishing'],
  portable: ['accounts', 'publishing', 'history'],
};

/**
 * What every file of a top folder refuses: the blocks of its subfolders start from these, so a
 * pattern added here reaches them all (flat config replaces the list per block, it does not merge).
 */
const IN_PACKAGES = [SERVER, CLIENT, NODE_BUILTINS];
const IN_CLIENT = [SERVER, NODE_BUILTINS, SYNC_LIBS];
const IN_SERVER = [CLIENT];
const IN_SYNC = [
  ...IN_CLIENT.filter((pattern) => pattern !== SYNC_LIBS),
  ROUTES,
  FEATURES,
  UI_FROM_SYNC,
  PLATFORM_FROM_SYNC,
];
const IN_FEATURE_SUBFOLDER = [...IN_CLIENT, ROUTES, OTHER_FEATURE, SIBLING_FEATURE_FROM_SUBFOLDER];

/** The longest function the server and the client keep (blank lines and comments not counted). */
const MAX_FUNCTION_LINES = 150;

/** One public entry per package; both `no-restricted-syntax` blocks below list it. */
const NO_EXPORT_ALL = {
  selector: 'ExportAllDeclaration',
  message: 'Use explicit named exports (one public entry per package).',
};

/** @param {Array<{regex: string, message: string}>} patterns */
const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'coverage/**',
      'client/route-tree.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,mts}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/ban-ts-comment': [
        'error',
        { 'ts-expect-error': 'allow-with-description', 'ts-ignore': true },
      ],
      'no-restricted-syntax': ['error', NO_EXPORT_ALL],
    },
  },
  // --- The documents' layout ---
  // Which Y.Map holds what in an app, visitor-data or user document is @pipit/app-definition's to
  // know: elsewhere, use its exports (hasDefinition, appListing, undoRoots, libraryMap, …) instead
  // of `getMap`. The server's tests are exempt: the server stores and guards any Y.Doc, and those
  // tests craft arbitrary and malformed documents on purpose. Flat config replaces a rule's options
  // per block, so this block lists NO_EXPORT_ALL again.
  {
    files: ['**/*.{ts,tsx,mts}'],
    ignores: ['packages/app-definition/**', 'sync-server/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_EXPORT_ALL,
        {
          selector: "CallExpression[callee.property.name='getMap']",
          message:
            "A document's layout belongs to @pipit/app-definition: use its exports (hasDefinition, appListing, undoRoots, libraryMap, readVisitorData, …) instead of getMap.",
        },
      ],
    },
  },
  // --- end of the documents' layout ---
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  { files: ['public/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // The service worker has its own environment (WebWorker, no DOM): its own tsconfig.
  {
    files: ['client/sw.ts'],
    languageOptions: {
      parserOptions: { projectService: false, project: './client/tsconfig.sw.json' },
      globals: { ...globals.serviceworker },
    },
  },
  // One file-name style: kebab-case. Route files follow TanStack Router's naming ($param, __root).
  {
    files: ['**/*.{ts,tsx}'],
    ignores: ['client/routes/**'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '**/': 'KEBAB_CASE' }],
    },
  },
  { files: ['packages/**/*.{ts,tsx}'], rules: restrict(IN_PACKAGES) },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict(IN_CLIENT),
  },
  { files: ['client/routes/**/*.{ts,tsx}'], rules: restrict(IN_CLIENT) },
  // The renderer runs in Node only (vite build --ssr; the server imports it): its own entry may.
  {
    files: ['client/prerender/entry.tsx'],
    rules: restrict(IN_CLIENT.filter((pattern) => pattern !== NODE_BUILTINS)),
  },
  {
    files: ['client/features/*/*.{ts,tsx}'],
    rules: restrict([...IN_CLIENT, ROUTES, OTHER_FEATURE, SIBLING_FEATURE]),
  },
  {
    files: ['client/features/*/*/*.{ts,tsx}'],
    rules: restrict(IN_FEATURE_SUBFOLDER),
  },
  ...subfolderBlocks('client/features/editor', EDITOR_ORDER, IN_FEATURE_SUBFOLDER),
  {
    files: ['client/ui/**/*.{ts,tsx}'],
    rules: restrict([...IN_CLIENT, ROUTES, FEATURES, SYNC_FROM_UI, PLATFORM_FROM_UI]),
  },
  {
    files: ['client/sync/**/*.{ts,tsx}'],
    // The one client folder that may use the sync libraries.
    rules: restrict(IN_SYNC),
  },
  ...subfolderBlocks('client/sync', SYNC_ORDER, IN_SYNC),
  // client/platform/: below features and routes, above sync, headless.
  {
    files: ['client/platform/**/*.{ts,tsx}'],
    rules: restrict([...IN_CLIENT, ROUTES, FEATURES, UI_FROM_PLATFORM]),
  },
  { files: ['sync-server/**/*.ts'], rules: restrict(IN_SERVER) },
  // Package order and the server's layers (the constants above), on top of the folder rules above.
  {
    files: ['packages/protocol/**/*.{ts,tsx}'],
    rules: restrict([...IN_PACKAGES, APP_DEFINITION_FROM_PROTOCOL, RUNTIME_FROM_BELOW]),
  },
  {
    files: ['packages/app-definition/**/*.{ts,tsx}'],
    rules: restrict([...IN_PACKAGES, RUNTIME_FROM_BELOW]),
  },
  ...subfolderBlocks('packages/app-definition/src', DEFINITION_ORDER, [
    ...IN_PACKAGES,
    RUNTIME_FROM_BELOW,
  ]),
  { files: ['sync-server/src/http/**/*.ts'], rules: restrict([...IN_SERVER, SERVER_SETUP]) },
  ...subfolderBlocks(
    'sync-server/src',
    SERVICE_ORDER,
    [...IN_SERVER, SERVER_HTTP, SERVER_SETUP],
    'docs/README.md, the server',
    'service',
  ),
  {
    files: ['sync-server/src/storage/**/*.ts'],
    rules: restrict([...IN_SERVER, SERVER_HTTP, SERVER_SETUP, SERVER_SERVICES]),
  },
  // No function of hundreds of lines in the server and the client: a factory, a registrar or a
  // component past this is split into named parts a reader can hold in their head (a sub-factory
  // per concern, one registrar per route group, a hook or a component per region). Tests are left
  // out: a describe block groups its cases. The exceptions, each with its reason:
  {
    files: ['sync-server/src/**/*.ts', 'client/**/*.{ts,tsx}'],
    ignores: [
      '**/*.test.ts',
      // Prose pages (about, FAQ, pricing, legal, the user documentation): static text written as
      // JSX, one page each; split, one page's words would be scattered over functions that hold
      // nothing else.
      'client/features/content/**',
    ],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: MAX_FUNCTION_LINES, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  // No import cycles, anywhere: a module that depends on itself through others has no place in the
  // dependency direction above. Type-only imports are erased at runtime, and the rule ignores them.
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.js', '.mjs'],
      'import-x/external-module-folders': ['node_modules'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['client/**/*.tsx', 'packages/runtime/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },
);
