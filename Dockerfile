# Build a static binary, then run it as a non-root user on a minimal image.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/grotto ./cmd/grotto \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/grotto /grotto
# A named volume starts as a copy of this directory, so it is writable by nonroot.
COPY --from=build --chown=65532:65532 /out/data /data
ENV GROTTO_DATA=/data GROTTO_LISTEN=:23234
VOLUME ["/data"]
EXPOSE 23234
USER nonroot:nonroot
ENTRYPOINT ["/grotto", "serve"]
