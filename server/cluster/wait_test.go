package cluster_test

import (
	"testing"
	"time"
)

// recv receives from ch; the test fails if nothing comes within a minute
// (waitFor's deadline).
func recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("waited a minute for %s", what)
	}
	var zero T
	return zero
}
