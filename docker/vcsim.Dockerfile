# syntax=docker/dockerfile:1
# OpenSDRS's vCenter simulator (govmomi v0.46.3 with faithful storage vMotion), for labs
# and demos only. Build from the repository root:
#   docker build -f docker/vcsim.Dockerfile -t opensdrs/vcsim .
FROM golang:1.22.12-bookworm AS build
WORKDIR /src
COPY src-test/vcsim/go.mod src-test/vcsim/go.sum ./
RUN go mod download
COPY src-test/vcsim/*.go ./
RUN CGO_ENABLED=0 go build -trimpath -o /out/vcsim .

FROM debian:bookworm-20250811-slim
RUN groupadd --system --gid 10001 vcsim && useradd --system --uid 10001 --gid vcsim vcsim \
    && mkdir -p /datastores && chown 10001:10001 /datastores
COPY --from=build /out/vcsim /usr/local/bin/vcsim
USER 10001:10001
EXPOSE 8989
# Inside a container the simulator listens on all of the container's interfaces; publish
# the port on loopback only (see compose.yaml).
ENTRYPOINT ["/usr/local/bin/vcsim", "-l", "0.0.0.0:8989", "-ds-root", "/datastores"]
