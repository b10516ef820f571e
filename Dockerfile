# goodput in a container: `goodput worker` pods and the coordinator's sweep Job
# (see `goodput k8s manifest`). Built from this repository:
#   docker build -t goodput:0.1.0 .
# Stage 1 builds (TypeScript, the page); stage 2 keeps only what runs, as the
# unprivileged `node` user.
FROM node:20-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/bin ./bin
COPY --from=build /src/examples ./examples
USER node
ENTRYPOINT ["node", "/app/bin/goodput.js"]
CMD ["--help"]
