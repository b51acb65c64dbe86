// Package faults is grotto's fault suite: it builds the real server binary,
// runs it as a separate process, and breaks things on purpose — kill -9 in
// the middle of play, SIGTERM under load, damaged and locked databases,
// hostile clients — then checks that no player lost a turn they saw. It has
// only tests; `go test ./internal/faults` runs it, and CI runs it with the
// rest.
package faults
