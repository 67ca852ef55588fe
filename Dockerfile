# syntax=docker/dockerfile:1
# k8s-health-bot image: `docker build -t k8s-health-bot .` then the Helm chart in helm/ (docs/helm.md).
# Two stages: the build stage has the TypeScript compiler and dev dependencies; the runtime stage has
# only production dependencies, dist/ and bin/, runs as uid 1000 and works on a read-only root FS.
# Pinned by digest: a tag moves, and a build must get the bytes that were reviewed. This is the
# multi-platform index of node:22-bookworm-slim (Node 22.23.2, Debian bookworm) as published on
# 2026-09-19 (docker-library/repo-info, repos/node/remote/22-bookworm-slim.md). To move on, take the
# tag's new index digest from there (or `docker buildx imagetools inspect node:22-bookworm-slim`).
ARG NODE_IMAGE=node:22-bookworm-slim@sha256:48e4b67d85f87bd551df43704e24d252f56cc5f8e9718841aace50f19948f0f9

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm install, not npm ci (docs/development.md: the lockfile omits optional binaries some registries lack).
# --ignore-scripts: `prepare` would build before the sources are copied; no dependency needs its install script.
RUN npm install --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund --ignore-scripts

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
# No package manager at runtime: nothing installs anything in a running pod.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack
# package.json carries "type": "module", which bin/ and dist/ need.
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root bin ./bin
# Numeric uid (the image's `node` user) so the kubelet can verify runAsNonRoot; files stay root-owned, read-only to it.
USER 1000:1000
EXPOSE 3000
ENTRYPOINT ["node", "bin/k8s-health.js"]
CMD ["serve"]
