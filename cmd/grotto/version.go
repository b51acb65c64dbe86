package main

// This file: `grotto version` (or --version): which build this is, so a
// host can tell the builds of a rolling deploy apart (also in
// grotto_build_info on /metrics).

import (
	"fmt"
	"io"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/server/metrics"
	"github.com/grotto-game/grotto/store/postgres"
)

// writeVersion writes one line: the module version, the VCS revision
// ("unknown" when the build did not record it), the Go version, the
// PostgreSQL schema this build migrates to, and the rules its games are
// played under.
func writeVersion(w io.Writer) {
	version, revision, goVersion := metrics.Build()
	if revision == "" {
		revision = "unknown"
	}
	fmt.Fprintf(w, "grotto %s (revision %s, %s; PostgreSQL schema %d; rules %s)\n", version, revision, goVersion,
		postgres.SchemaVersion, game.Rules(content.Default()))
}
