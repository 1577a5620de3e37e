# Keeper daemon image: build the single executable, ship it alone.
#   docker build -t keeper .
#   docker run --env-file keeper.env -p 127.0.0.1:8080:8080 keeper

# --- stage 1: bundle src/keeper into ONE executable (Node single executable application) ---
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Exactly the lock file's packages; fails when package.json and the lock disagree.
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY .node-version ./
COPY scripts/build-keeper.sh ./scripts/build-keeper.sh
COPY scripts/lib/node.sh ./scripts/lib/node.sh
RUN bash scripts/build-keeper.sh /out/keeper

# --- stage 2: glibc + libstdc++ + CA certificates, no shell, no package manager, non-root ---
FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /app
COPY --from=build /out/keeper /app/keeper
# The keeper binds 127.0.0.1 by default; in a container the API must listen on every interface
# of the container to be published (the compose file publishes it on the host's loopback only).
ENV API_PORT=8080 API_HOST=0.0.0.0 NODE_ENV=production
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=10s --start-period=20s --retries=3 CMD ["/app/keeper", "healthcheck"]
ENTRYPOINT ["/app/keeper"]
