import { TableScroll } from '../../../ui/prose';

const START_COMMANDS = `# SQLite under ./data, on http://localhost:8080
npm start

# PostgreSQL on another port
PORT=3000 DATABASE_URL=postgres://pipit@db.internal:5432/pipit npm start`;

const NGINX_EXAMPLE = `server {
  listen 443 ssl;
  server_name pipit.example.org;
  # ssl_certificate and ssl_certificate_key go here

  location / {
    proxy_pass http://127.0.0.1:8080;
    proxy_http_version 1.1;
    proxy_set_header Host $host;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection "upgrade";
  }
}`;

const ENVIRONMENT = [
  {
    name: 'PORT',
    defaultValue: '8080',
    description: 'The port for the web app, the REST API and the sync websocket.',
  },
  {
    name: 'HOST',
    defaultValue: 'All interfaces',
    description:
      'The address to listen on, for example 127.0.0.1 to accept local connections only.',
  },
  {
    name: 'DATA_DIR',
    defaultValue: './data',
    description: 'Where the SQLite database (pipit.sqlite) and its WAL files live.',
  },
  {
    name: 'DATABASE_URL',
    defaultValue: 'Unset (SQLite)',
    description: 'A postgres:// URL, such as postgres://user@host:5432/db, to use PostgreSQL.',
  },
  {
    name: 'PUBLIC_ORIGIN',
    defaultValue: 'Unset',
    description:
      'The address people use, for example https://pipit.example.org. Used for origin checks, ' +
      'as the base of links in emails, and (when https) for Secure session cookies. Set it in production.',
  },
  {
    name: 'LOG_LEVEL',
    defaultValue: 'info',
    description: 'One of fatal, error, warn, info, debug, trace, or silent.',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    defaultValue: '15000',
    description: 'The time limit, in milliseconds, for a graceful shutdown.',
  },
  {
    name: 'CLIENT_DIR',
    defaultValue: 'dist/client',
    description: 'The folder holding the built web app that the server serves.',
  },
  {
    name: 'SMTP_URL',
    defaultValue: 'unset',
    description:
      'The mail relay, such as smtps://user:pass@mail.example.org:465. Unset, each email is saved under DATA_DIR/outbox and its link is printed in the log.',
  },
  {
    name: 'MAIL_FROM',
    defaultValue: 'Pipit <no-reply@localhost>',
    description: 'The sender of the emails Pipit sends.',
  },
  {
    name: 'HUMAN_CHECK_DIFFICULTY',
    defaultValue: '5000',
    description:
      'How much work the human check asks of a browser. The default takes about a tenth of a second on a phone.',
  },
  {
    name: 'TRUST_PROXY',
    defaultValue: 'false',
    description:
      'Set to true behind a reverse proxy, so the client address comes from X-Forwarded-For and https is recognised.',
  },
  {
    name: 'USERNAME_HOLD_DAYS',
    defaultValue: '30',
    description: 'How long the username of a deleted account stays unavailable.',
  },
  {
    name: 'AI_BASE_URL',
    defaultValue: 'Unset (no AI)',
    description:
      'An OpenAI-compatible API, http or https, such as http://localhost:11434/v1 for Ollama. Turns AI on.',
  },
  {
    name: 'AI_MODEL',
    defaultValue: 'Unset',
    description: 'The model to use, such as llama3.2. Required with AI_BASE_URL.',
  },
  {
    name: 'AI_API_KEY',
    defaultValue: 'Unset',
    description:
      'The provider’s key. It stays on the server and is never sent to browsers. Local servers need none.',
  },
  {
    name: 'AI_TIMEOUT_MS',
    defaultValue: '60000',
    description: 'The longest one request to the AI provider may take, in milliseconds.',
  },
  {
    name: 'AI_DAILY_RUNS',
    defaultValue: '50',
    description: 'How many AI runs one person may make per day (UTC).',
  },
] as const;

const AI_PROVIDERS = `# Ollama
AI_BASE_URL=http://localhost:11434/v1 AI_MODEL=llama3.2 npm start

# llama.cpp's server (llama-server -m model.gguf --port 8081)
AI_BASE_URL=http://localhost:8081/v1 AI_MODEL=local npm start

# vLLM (vllm serve Qwen/Qwen2.5-7B-Instruct)
AI_BASE_URL=http://localhost:8000/v1 AI_MODEL=Qwen/Qwen2.5-7B-Instruct npm start

# OpenAI
AI_BASE_URL=https://api.openai.com/v1 AI_MODEL=gpt-4o-mini AI_API_KEY=sk-... npm start`;

/** Running a Pipit server: commands, storage, configuration, proxy, backups. */
export function SelfHostingSection() {
  return (
    <>
      <h2 id="self-hosting">Self-hosting</h2>
      <p>
        Pipit runs as one Node.js process that serves the web app, the REST API and the sync
        websocket on the same port.
      </p>
      <h3>Requirements</h3>
      <ul>
        <li>Node.js 20.19 or newer, with npm.</li>
        <li>A C++ toolchain, only if the SQLite driver has to be compiled for your platform.</li>
      </ul>
      <h3>Starting the server</h3>
      <p>
        Run <code>npm start</code> in the project folder. It installs the dependencies, using a
        pinned version of pnpm fetched through npx, then builds the web app and starts the server.
        Open <code>http://localhost:8080</code> in a browser to use it.
      </p>
      <pre>
        <code>{START_COMMANDS}</code>
      </pre>
      <p>
        If a setting has an invalid value, the server does not start and names the variable to fix.
        To run the whole test suite, use <code>npm test</code>.
      </p>
      <h3>Storage</h3>
      <dl>
        <dt>SQLite (the default)</dt>
        <dd>
          Nothing to install. The database is the file <code>pipit.sqlite</code> in the data folder
          (<code>./data</code> unless you set <code>DATA_DIR</code>), in WAL mode.
        </dd>
        <dt>PostgreSQL</dt>
        <dd>
          Set <code>DATABASE_URL</code>, for example <code>postgres://user@host:5432/db</code>.
        </dd>
      </dl>
      <p>
        Either way, schema migrations apply automatically at start-up. To see which engine is in
        use, call <code>GET /api/health</code>.
      </p>
      <h3>Environment variables</h3>
      <TableScroll label="Environment variables">
        <table>
          <thead>
            <tr>
              <th scope="col">Variable</th>
              <th scope="col">Default</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            {ENVIRONMENT.map((variable) => (
              <tr key={variable.name}>
                <td>
                  <code>{variable.name}</code>
                </td>
                <td>{variable.defaultValue}</td>
                <td>{variable.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <p>Logs are JSON lines on standard output, ready for any log collector.</p>
      <h3 id="ai-provider">Connecting an AI provider</h3>
      <p>
        AI actions need an AI provider. Pipit works with any OpenAI-compatible API: a model you run
        yourself with Ollama, llama.cpp&apos;s server or vLLM, or a hosted one such as OpenAI. Set{' '}
        <code>AI_BASE_URL</code> and <code>AI_MODEL</code> (and <code>AI_API_KEY</code> if the
        provider needs one), then start the server:
      </p>
      <pre>
        <code>{AI_PROVIDERS}</code>
      </pre>
      <ul>
        <li>
          The server builds every prompt from the app&apos;s stored template; browsers send only the
          values it uses. The key never leaves the server.
        </li>
        <li>
          Answers are asked for under a JSON schema and checked like a hand-made record before
          anything uses them. An answer that does not fit is sent back once to be fixed, then
          refused with <code>ai_output_invalid</code>; nothing is saved.
        </li>
        <li>
          Each person has <code>AI_DAILY_RUNS</code> runs a day (50 by default), reset at midnight
          UTC. A run counts once the provider was asked and worked on it; one it refused, or could
          not take (busy, failing, unreachable), is given back. Past them, runs fail with{' '}
          <code>ai_quota_exceeded</code>.
        </li>
        <li>
          If the provider is slow, busy or unreachable, runs fail with{' '}
          <code>ai_provider_failed</code> and a message saying which. Requests are not retried.
        </li>
        <li>
          Prompts and answers are never stored or logged. Operators see runs and tokens per day and
          app on <code>/admin</code>.
        </li>
      </ul>
      <p>
        Without <code>AI_BASE_URL</code>, everything else works and AI features say &ldquo;AI is not
        configured on this server&rdquo;.
      </p>
      <h3>Behind a reverse proxy</h3>
      <p>For production, put Pipit behind a reverse proxy that:</p>
      <ul>
        <li>terminates TLS, so people connect over HTTPS;</li>
        <li>
          forwards websockets, passing on the <code>Upgrade</code> and <code>Connection</code>{' '}
          headers, or sync cannot connect.
        </li>
      </ul>
      <p>
        Set <code>PUBLIC_ORIGIN</code> to the address people use, such as{' '}
        <code>https://pipit.example.org</code>, so that origin checks accept their requests. With
        nginx, for example:
      </p>
      <pre>
        <code>{NGINX_EXAMPLE}</code>
      </pre>
      <h3>Backups</h3>
      <p>
        Back up the data folder, or your PostgreSQL database if you use one. That holds every
        account, app and document on the server.
      </p>
      <ul>
        <li>
          With SQLite, copy the whole data folder while the server is stopped, including any{' '}
          <code>-wal</code> and <code>-shm</code> files next to <code>pipit.sqlite</code>, or use
          SQLite&apos;s own online backup.
        </li>
        <li>
          With PostgreSQL, use your usual tools, such as <code>pg_dump</code>.
        </li>
      </ul>
      <h3>Shutting down</h3>
      <p>
        On <code>SIGTERM</code>, the server stops accepting connections, stores every pending
        document change, then exits. <code>SHUTDOWN_TIMEOUT_MS</code> sets how long it may take.
        While the server is down, people keep working on their devices, and their changes sync when
        it is back.
      </p>
    </>
  );
}
