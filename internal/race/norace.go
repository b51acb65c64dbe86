//go:build !race

// Package race says whether the race detector is on, so that a test of
// the pure game core (one goroutine by the rules: no concurrency for the
// detector to find) can play a few of its seeds under -race and all of
// them in the README's plain `go test ./game/...` pass, where they run
// 10 to 20 times faster. Every seed's assertions still run in one pass or
// the other.
package race

// Enabled is true when the binary was built with -race.
const Enabled = false
