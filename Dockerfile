# syntax=docker/dockerfile:1
# The product as one image: the compiled server, the built web app and the server's production
# dependencies, run as the unprivileged `node` user. Nothing is installed when a container starts.
# The same steps, without Docker: server/scripts/check-image-steps.sh (run by `pnpm drill`).

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- pnpm on Node, for the two install stages ----------------------------------------------------
FROM ${NODE_IMAGE} AS pnpm
RUN npm install -g pnpm@10 && npm cache clean --force
WORKDIR /app
# The manifests alone first, so that a change of code does not install everything again.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json .npmrc ./
COPY core/package.json core/
COPY server/package.json server/
COPY web/package.json web/
COPY desktop/package.json desktop/
COPY fixtures/package.json fixtures/
# The fixes pnpm applies to the web app's packages as it installs them (pnpm-workspace.yaml,
# patchedDependencies).
COPY web/patches/ web/patches/

# ---- install everything and build -----------------------------------------------------------------
FROM pnpm AS build
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm --filter @everest/web build && pnpm --filter @everest/server build

# ---- the server's production dependencies only ------------------------------------------------------
FROM pnpm AS prod-deps
RUN pnpm install --frozen-lockfile --prod --filter @everest/server...

# ---- runtime ------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# The checkout's layout: the bundle finds web/dist and the fixtures' files relative to itself, and
# its npm dependencies in server/node_modules (pnpm's links into node_modules/.pnpm).
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=prod-deps /app/server/node_modules ./server/node_modules
COPY --from=build /app/server/package.json ./server/package.json
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/fixtures/files ./fixtures/files
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness only: a database outage must not get a live server restarted (it reconnects itself).
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node itself is PID 1 and receives SIGTERM: the server drains its requests and exits 0.
CMD ["node", "--enable-source-maps", "server/dist/cli.js", "start"]
