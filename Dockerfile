# petstore-mock: a contract-exact, stateful mock of the Pet Store API.
# Build: docker build -t petstore-mock .   Run: docker run --rm --read-only -p 4010:4010 petstore-mock

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/bundle.mjs scripts/builtins-by-export.mjs scripts/eager-compile.mjs scripts/merge-start-chunks.mjs scripts/prepare-routes.mjs ./scripts/
COPY src ./src
# One self-contained bundle (dependencies included, faker in a chunk loaded only for --faker):
# no node_modules in the final image, and fewer files to load at start-up.
RUN npm run bundle

FROM node:24-bookworm-slim
# package.json's version (test/package/version.test.ts holds them equal); set it when building another: docker build --build-arg VERSION=$(node -p "require('./package.json').version") .
ARG VERSION=0.3.0
LABEL org.opencontainers.image.title="petstore-mock" \
      org.opencontainers.image.description="Contract-exact, stateful, deterministic mock server for the Pet Store API" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT"
# A single-job container: /__admin open without a token, by choice (health says "admin": "open");
# the shared set-ups (deploy/) set PETSTORE_MOCK_OPEN_ADMIN=false and admin tokens.
ENV PETSTORE_MOCK_HOST=0.0.0.0 PETSTORE_MOCK_PORT=4010 PETSTORE_MOCK_OPEN_ADMIN=true NODE_ENV=production NODE_COMPILE_CACHE=/app/.compile-cache
WORKDIR /app
COPY package.json openapi.yaml ./
COPY fixtures ./fixtures
COPY --from=build /app/dist/bundle ./dist
COPY scripts/warm-compile-cache.mjs /tmp/
RUN mkdir .compile-cache && chown node .compile-cache
USER node
# V8's compile cache, filled by one start of the CMD's command line and a request of each operation,
# then read-only: a start loads compiled code instead of parsing and compiling the bundle. Node keeps
# it per Node version and user id, hence USER node first (another --user starts without it).
RUN node /tmp/warm-compile-cache.mjs node --max-semi-space-size=4 dist/bin.js && chmod -R a-w .compile-cache
EXPOSE 4010
# Liveness: whether the process answers at all (never Redis's state; readiness is /__admin/health/ready).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PETSTORE_MOCK_PORT||4010)+'/__admin/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself is PID 1 (no npm, no shell): SIGTERM reaches it and it exits 0 after draining.
# A 4 MiB young generation: Node 24 lets it grow to 128 MiB under load (RSS after 200,000 POSTs
# ~330 MiB against ~200); at 1 MiB the journal's entries outlive it and every request costs ~20 %
# more CPU (npm run bench runs this same command line).
CMD ["node", "--max-semi-space-size=4", "dist/bin.js"]
