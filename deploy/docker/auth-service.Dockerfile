# syntax=docker/dockerfile:1
# Image of auth-service (from the repository root):
#   docker build -f deploy/docker/auth-service.Dockerfile -t itp/auth-service .     or: npx nx run auth-service:docker
# All five Dockerfiles are this one with the app name changed (tools/deploy/deploy-files.spec.ts).
#
# build:   npm ci of the workspace (esbuild and tsx are dev dependencies), then the app's install +
#          bundle steps into an empty /out: tools/build/assemble-app.ts, the script CI runs and
#          starts the app from (tools/deploy/image-contents.spec.ts).
# runtime: /out only: the bundles in dist/ and the few packages esbuild leaves external (native
#          addons, drivers) in node_modules. No npm, no sources, no dev chain. Non-root (uid 1000),
#          nothing written outside /tmp: runs with a read-only root filesystem.
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
# better-sqlite3 compiles from source when its prebuilt binary cannot be fetched.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /repo
COPY . .
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
RUN node --import tsx tools/build/assemble-app.ts auth-service /out

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production APP_ENV=production HOST=0.0.0.0 PORT=8081
WORKDIR /app
COPY --from=build /out /app
USER 1000:1000
EXPOSE 8081 9081
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "dist/healthcheck.js"]
CMD ["node", "--enable-source-maps", "dist/main.js"]
