# Simulation image for sweeps on Kubernetes (deploy/k8s/sim-sweep.yaml). The repository's main
# Dockerfile ships only the keeper executable; the simulator needs Node with tsx, the TypeScript
# sources, the sandbox node binary and the contract wasm files.
#
# Build the native pieces on a Debian 12 (bookworm) x86-64 host first, then the image from the
# repository root:
#   cargo build --profile sandbox -p sandbox     # target/sandbox/sandbox
#   bash scripts/build-wasm.sh                   # target/wasm/*.wasm
#   bash scripts/blend-wasms.sh                  # target/wasm/blend/*.wasm
#   docker build -f deploy/k8s/sim.Dockerfile -t <registry>/stellar-pooled-liquidations-sim:<tag> .
# The build context is filtered by deploy/k8s/sim.Dockerfile.dockerignore (BuildKit and podman
# read it), not by the root .dockerignore, which leaves out sim/, sandbox/ and target/.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# Dev dependencies included: the simulator runs TypeScript through tsx.
RUN npm ci --include=dev --no-audit --no-fund && npm cache clean --force
COPY tsconfig.json .node-version ./
# `npm run sim` runs through scripts/node-run.sh (the image's Node is the project's line).
COPY scripts/node-run.sh ./scripts/node-run.sh
COPY scripts/lib/node.sh ./scripts/lib/node.sh
COPY src ./src
COPY sim ./sim
COPY sandbox ./sandbox
COPY target/sandbox/sandbox ./target/sandbox/sandbox
COPY target/wasm ./target/wasm
# sandbox/ts/launch.ts rebuilds the node with cargo when the binary is older than sandbox/src;
# there is no cargo here, so make the binary the newest file.
RUN touch target/sandbox/sandbox && mkdir -p /out && chown node:node /out
USER node
ENTRYPOINT ["npm", "run", "--silent", "sim", "--"]
