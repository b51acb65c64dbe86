package await

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// failing records a test's failure instead of ending the real test.
type failing struct {
	testing.TB
	mu  sync.Mutex
	msg string
}

func (f *failing) Helper() {}
func (f *failing) Fatalf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.msg = format
}

func TestAWaitThatRunsOutFailsNamingWhatItWaitedFor(t *testing.T) {
	f := &failing{TB: t}
	Until(f, 20*time.Millisecond, "a condition that never holds", func() bool { return false })
	if !strings.HasPrefix(f.msg, "waited ") {
		t.Errorf("Until ran out without failing: %q", f.msg)
	}
	f = &failing{TB: t}
	Recv(f, 20*time.Millisecond, "a value that never comes", make(chan int))
	if f.msg == "" {
		t.Error("Recv ran out without failing")
	}
	if Within(20*time.Millisecond, func() bool { return false }) {
		t.Error("Within said a condition that never holds held")
	}
}

func TestAWaitEndsAsSoonAsItsEventComes(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if v := Recv(t, time.Minute, "the value", ch); v != 7 {
		t.Errorf("Recv = %d, want 7", v)
	}
	n := 0
	Until(t, time.Minute, "the third look", func() bool { n++; return n == 3 })
	n = 0
	if !Within(time.Minute, func() bool { n++; return n == 3 }) {
		t.Error("Within gave up on a condition that held at the third look")
	}
	var wg sync.WaitGroup
	wg.Go(func() {})
	Return(t, time.Minute, "the group", wg.Wait)
}
