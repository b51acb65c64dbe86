# Build a static binary, then run it as a non-root user on a minimal image.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
# Bubble Tea with grotto's render-on-demand patch, through go.mod's replace
# (internal/third_party/README.md).
COPY internal/third_party/bubbletea internal/third_party/bubbletea
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/grotto ./cmd/grotto \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/grotto /grotto
# A named volume starts as a copy of this directory, so it is writable by nonroot.
COPY --from=build --chown=65532:65532 /out/data /data
# SSH on 23234; the web pages (scores, who, watching and playing in the
# browser) on 8080. Metrics stay off: set GROTTO_METRICS to an address only
# your Prometheus reaches.
ENV GROTTO_DATA=/data GROTTO_LISTEN=:23234 GROTTO_HTTP=:8080
VOLUME ["/data"]
EXPOSE 23234 8080
USER nonroot:nonroot
ENTRYPOINT ["/grotto", "serve"]
