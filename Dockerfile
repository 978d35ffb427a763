# syntax=docker/dockerfile:1
# Pipit in a container (docs/deployment.md): the workspace installed and the client built in the
# first stage, then run as a non-root user from the second. The server runs its TypeScript source
# through tsx, so the image keeps the workspace's dependencies.

FROM node:20.19-bookworm AS build
WORKDIR /app
# pnpm as package.json's packageManager names it.
RUN corepack enable
# Dependencies first, from the lockfile alone: this layer is rebuilt only when it changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc ./
RUN pnpm fetch
COPY . .
# better-sqlite3 compiles its addon here (python3, make and g++ come with this image).
RUN pnpm install --offline --frozen-lockfile && node scripts/pipit.mjs build

FROM node:20.19-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# The data and backup directories belong to the image's unprivileged user (node, uid 1000);
# nothing else is writable by it.
RUN mkdir -p /data /backups && chown node:node /data /backups
USER node
VOLUME ["/data"]
EXPOSE 8080
# Liveness: the process answers (it never touches the database). Load balancers ask /api/ready.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "scripts/pipit.mjs", "serve"]
