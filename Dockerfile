# The production image: the server (Fastify) and the built player web app in one Node 24 LTS
# process (Node 20 reached its end of life in April 2026; `.ci/run` also runs the unit and
# integration suites on Node 24, while the quick start keeps working on Node 20.19+).
# Build: docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD) -t sorte .   Run: see compose.yaml (PostgreSQL, two or more servers, Caddy).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps ./apps
COPY packages ./packages
COPY scripts ./scripts
# The in-house games' certification report the server serves (GET /api/originals/certification).
COPY docs/certification ./docs/certification
RUN npm ci && npm run build

FROM node:24-bookworm-slim
# The commit the image is built from (docker build --build-arg BUILD_COMMIT=$(git rev-parse HEAD)):
# the image holds no .git, and the back office matches it against the certified commit.
ARG BUILD_COMMIT=
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 BUILD_COMMIT=${BUILD_COMMIT}
WORKDIR /app
COPY --from=build /app /app
# `npm run serve` runs the compiled bundle (apps/server/dist, built above by `npm run build`) with
# plain node; WORKERS=N (or auto) runs N server processes in this container (node:cluster).
# The data folder belongs to the server's user: the sandboxes keep their state there, and without
# KYC_DOCUMENT_KEY the identity documents' key lives in data/secrets (compose shares it between apps).
RUN mkdir -p /app/data/secrets && chown -R node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:3000/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["npm", "run", "serve"]
