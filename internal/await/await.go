// Package await is how grotto's tests wait: on an event or a condition,
// each wait with a deadline, never a fixed sleep that passes for free on a
// slow machine or fails on a loaded one. A wait that runs out fails the
// test, naming what it waited for.
package await

import (
	"testing"
	"time"
)

// Poll is the pause between two looks at a condition in Until: short
// enough that a test goes on soon after the condition holds.
const Poll = 5 * time.Millisecond

// Recv receives from ch and returns the value, or fails tb when nothing
// comes within d (what names it in the failure). A closed ch gives its
// zero value at once.
func Recv[T any](tb testing.TB, d time.Duration, what string, ch <-chan T) T {
	tb.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(d):
		tb.Fatalf("waited %v for %s", d, what)
	}
	var zero T
	return zero
}

// Until looks at cond every Poll until it holds, and fails tb when it
// does not within d (what names the condition in the failure).
func Until(tb testing.TB, d time.Duration, what string, cond func() bool) {
	tb.Helper()
	for deadline := time.Now().Add(d); !cond(); {
		if time.Now().After(deadline) {
			tb.Fatalf("waited %v for %s", d, what)
			return // a tb whose Fatalf returns (a test of a test)
		}
		time.Sleep(Poll) // pacing of a loop with a deadline
	}
}

// Return runs f, which blocks until something happens (a WaitGroup's
// Wait, a process's exit), and fails tb when it has not returned within d.
// f goes on running after a failure; the test binary ends it.
func Return(tb testing.TB, d time.Duration, what string, f func()) {
	tb.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	Recv(tb, d, what, done)
}

// Within looks at cond every Poll until it holds or d has passed, and
// says whether it held: for a loop that does something other than fail
// when its time runs out (tries again another way, reports what it saw).
func Within(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); !cond(); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(Poll) // pacing of a loop with a deadline
	}
	return true
}

// Gap pauses for d as part of a test's scenario, not to wait for
// anything: the network's gap between two parts of one escape sequence,
// a kill landing a moment after keys in flight, a player reading a line
// before trying again. Time passing is what such a test is about, so no
// event can stand for it; a wait for something uses Recv, Until or
// Within instead. d is at most a second: a scenario longer than that
// wants a clock the code under test reads.
func Gap(d time.Duration) {
	if d > time.Second {
		panic("await.Gap: a scenario's gap is at most a second")
	}
	time.Sleep(d) // the scenario's own timing
}
