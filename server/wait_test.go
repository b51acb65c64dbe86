package server

// Waiting in tests: on events, each with a deadline, never for a fixed time.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/sshtest"
)

// waitUntil polls cond until it holds; the test fails if it does not within
// waitLong. what names the condition in the failure.
func waitUntil(t testing.TB, what string, cond func() bool) {
	t.Helper()
	await.Until(t, waitLong, what, cond)
}

// recv receives from ch; the test fails if nothing comes within waitLong.
func recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	return await.Recv(t, waitLong, what, ch)
}

// markKey presses key, which the play screen does not bind, on c and waits
// for its note ("Unknown command …"). Input is played in order, so once
// the note shows every key sent before it has been played (or ignored):
// what they did, and did not do, shows on the returned screen. Each marker
// of a session needs a key of its own, for the note of the last stays up
// until a turn passes. bad (nil for none) ends the wait early on a screen
// the input before the marker should not have led to, one where the
// marker would never show: the caller's checks then report it.
func markKey(t *testing.T, c *sshtest.Client, key string, bad func(screen string) bool) string {
	t.Helper()
	note := fmt.Sprintf("Unknown command %q.", key)
	c.Send(key)
	screen, err := c.WaitFor(timeout(t), func(s string) bool {
		return strings.Contains(s, note) || bad != nil && bad(s)
	})
	if err != nil {
		t.Fatalf("the marker %q was never played: %v", key, err)
	}
	return screen
}

// within runs f, which blocks until something happens (a WaitGroup's Wait,
// a session's end), and fails the test if it has not returned within
// waitLong.
func within(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	recv(t, what, done)
}
