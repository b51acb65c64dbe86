package lobby

import (
	"sync"
	"sync/atomic"
	"testing"
)

// A player watched by 2,000 who join at once is told once that its
// watchers changed, not 2,000 times: each notice makes the player encode
// and publish a frame to every watcher, so one per join was O(n²) work
// queued ahead of the player's next key (issue 20, case B2).
func TestTwoThousandWatchersJoiningTellThePlayerOnceUntilItAsks(t *testing.T) {
	m := NewMemory(nil)
	var told atomic.Int64
	s, _ := m.Claim(Holder{Key: "SHA256:a", Name: "alice", Notifier: NotifierFunc(func(e Event) {
		if e == WatchersChanged {
			told.Add(1)
		}
	})})
	var wg sync.WaitGroup
	stops := make([]func(), 2000)
	for i := range stops {
		wg.Go(func() {
			_, stop, ok := m.Watch(s.ID())
			if !ok {
				t.Error("cannot watch a live slot")
				return
			}
			stops[i] = stop
		})
	}
	wg.Wait()
	if n := told.Load(); n != 1 {
		t.Errorf("2,000 watchers joining told the player %d times, want once until it asks", n)
	}
	if n := s.Watchers(); n != 2000 {
		t.Errorf("Watchers() = %d, want 2000", n)
	}
	stops[0]()
	if n := told.Load(); n != 2 {
		t.Errorf("a watcher leaving after the player asked: told %d times in all, want 2", n)
	}
	if n := s.Watchers(); n != 1999 {
		t.Errorf("Watchers() = %d after one left, want 1999", n)
	}
	if g := m.Games()[0]; g.Watchers != 1999 {
		t.Errorf("listed with %d watchers, want 1999", g.Watchers)
	}
	for _, stop := range stops[1:] {
		stop()
	}
	if n := s.Watchers(); n != 0 {
		t.Errorf("Watchers() = %d after all left, want 0", n)
	}
}
