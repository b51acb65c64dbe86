package lobby

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

// within runs f, which blocks until something happens (a WaitGroup's
// Wait), and fails the test if it has not returned within waitLong.
func within(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	recv(t, what, done)
}
