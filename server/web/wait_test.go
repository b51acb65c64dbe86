package web

import (
	"testing"
	"time"
)

// recv receives from ch; the test fails if nothing comes within waitLong.
func recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLong):
		t.Fatalf("waited %v for %s", waitLong, what)
	}
	var zero T
	return zero
}
