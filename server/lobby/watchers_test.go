package lobby

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game/frame"
)

// A player watched by 2,000 who join at once is told once that its
// watchers changed, not 2,000 times: each notice makes the player encode
// and publish a frame to every watcher, so one per join was O(n²) work
// queued ahead of the player's next key (a breaker's 2,000 web watchers of
// one game held its player's next key for 68 s).
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
	within(t, "the watchers to join", wg.Wait)
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

// TestEveryOneOf2000WatchersGetsTheNewestFrame: the fan-out paces itself
// but reaches every watcher, each with the newest frame, including those
// that joined while it ran.
func TestEveryOneOf2000WatchersGetsTheNewestFrame(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a", Name: "alice"})
	var chans []<-chan *frame.Frame
	for range 2000 {
		ch, stop, _ := m.Watch(s.ID())
		defer stop()
		chans = append(chans, ch)
	}
	first := frame.New([]byte("turn 1"), nil)
	s.Publish(playing, 1, 1, "", first)
	late, stop, _ := m.Watch(s.ID()) // joins as the frames go out
	defer stop()
	newest := frame.New([]byte("turn 2"), nil)
	s.Publish(playing, 1, 2, "", newest)
	deadline := time.After(waitLong)
	for i, ch := range append(chans, late) {
		for got := false; !got; {
			select {
			case f := <-ch:
				got = f == newest
			case <-deadline:
				t.Fatalf("watcher %d of 2,001 never got the newest frame", i)
			}
		}
	}
}

// BenchmarkPublishTo2000Watchers: what a player's Publish costs with
// 2,000 watchers of its game (each reading its frames as they come); the
// player's own goroutine pays this every turn.
func BenchmarkPublishTo2000Watchers(b *testing.B) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a", Name: "alice"})
	var wg sync.WaitGroup
	for range 2000 {
		ch, stop, _ := m.Watch(s.ID())
		defer stop()
		wg.Go(func() {
			for range ch {
			}
		})
	}
	frames := [2]*frame.Frame{frame.New([]byte("frame 1"), nil), frame.New([]byte("frame 2"), nil)}
	i := 0
	for b.Loop() {
		i++
		s.Publish(playing, 1, i, "", frames[i%2])
	}
	b.StopTimer()
	s.Release()
	within(b, "the watchers to read their last frame", wg.Wait)
}
