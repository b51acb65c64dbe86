package lobby

import (
	"sync"
	"testing"
	"time"
)

func TestASlowWatcherGetsOnlyTheNewestFrameAndNeverBlocksThePlayer(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a", Name: "alice"})
	frames, stop, ok := m.Watch(s.ID())
	if !ok {
		t.Fatal("cannot watch a live slot")
	}
	defer stop()
	for i := range 1000 { // the watcher reads nothing meanwhile
		s.Publish(1, i, "", []byte{byte(i)})
	}
	if f := <-frames; f[0] != byte(999%256) {
		t.Errorf("watcher got frame %d, want the newest", f[0])
	}
	if n := m.DroppedFrames(); n != 999 { // every frame but the newest was replaced unread
		t.Errorf("dropped frames = %d, want 999", n)
	}
	if got := m.Games()[0]; got.Turn != 999 || got.Depth != 1 || got.Watchers != 1 || got.Name != "alice" {
		t.Errorf("list = %+v", got)
	}
	s.Release()
	if _, open := <-frames; open {
		t.Error("the watcher's channel stays open after the player left")
	}
	stop() // after the release: nothing to close twice
}

func TestANewWatcherStartsWithTheLatestFrame(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a"})
	s.Publish(2, 7, "", []byte("turn 7"))
	frames, stop, _ := m.Watch(s.ID())
	defer stop()
	if f := <-frames; string(f) != "turn 7" {
		t.Errorf("first frame %q, want the latest published", f)
	}
	s.Publish(2, 8, "", []byte("turn 8")) // read at once: nothing dropped
	<-frames
	if n := m.DroppedFrames(); n != 0 {
		t.Errorf("dropped frames = %d for a watcher that read every frame", n)
	}
}

func TestThePlayerIsToldWhenWatchersComeAndGo(t *testing.T) {
	m := NewMemory(nil)
	told := newEvents()
	s, _ := m.Claim(Holder{Key: "SHA256:a", Notifier: told})
	_, stop, _ := m.Watch(s.ID())
	if e := told.next(); e != WatchersChanged || s.Watchers() != 1 {
		t.Errorf("after a watcher came: told %v, %d watching", e, s.Watchers())
	}
	stop()
	stop() // a second stop is no second departure
	if e := told.next(); e != WatchersChanged || s.Watchers() != 0 {
		t.Errorf("after it left: told %v, %d watching", e, s.Watchers())
	}
	if len(told) != 0 {
		t.Errorf("told %v after a second stop", <-told)
	}
}

func TestNobodyWatchesAGoneSlot(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a"})
	s.Release()
	if _, _, ok := m.Watch(s.ID()); ok {
		t.Error("watching a released slot succeeded")
	}
}

// TestTodaysDailyIsNeverWatched: a game of today's daily challenge (UTC)
// cannot be watched: Watch refuses it, a watcher of the game before it
// became the daily sees its channel close without a frame of the daily,
// and once the day is over (00:00 UTC) it may be watched like any game
// (as its replay may be: issue 20). The key's own second session sees it
// all along (WatchOwn).
func TestTodaysDailyIsNeverWatched(t *testing.T) {
	now := time.Date(2026, 12, 2, 23, 59, 0, 0, time.UTC)
	var mu sync.Mutex
	m := NewMemory(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	told := newEvents()
	s, _ := m.Claim(Holder{Key: "SHA256:a", Name: "ann", Notifier: told})
	s.Publish(1, 3, "", []byte("a game of its own"))
	before, stop, ok := m.Watch(s.ID())
	if !ok {
		t.Fatal("cannot watch a game of its own")
	}
	defer stop()
	<-told
	if f := <-before; string(f) != "a game of its own" {
		t.Fatalf("first frame %q", f)
	}
	s.Publish(1, 0, "2026-12-02", []byte("today's daily"))
	select {
	case f, open := <-before:
		if open {
			t.Errorf("a watcher got a frame of today's daily: %q", f)
		}
	case <-time.After(10 * time.Second):
		t.Error("the watcher's channel stayed open once the game became today's daily")
	}
	if s.Watchers() != 0 {
		t.Errorf("%d still watch today's daily", s.Watchers())
	}
	if _, _, ok := m.Watch(s.ID()); ok {
		t.Error("today's daily can be watched")
	}
	own, stopOwn, ok := m.WatchOwn("SHA256:a") // the key's second session
	if !ok {
		t.Fatal("the key's own session cannot watch its daily")
	}
	defer stopOwn()
	<-own
	s.Publish(1, 1, "2026-12-02", []byte("today's daily, turn 1"))
	if f := <-own; string(f) != "today's daily, turn 1" {
		t.Errorf("the key's own watcher got %q", f)
	}

	mu.Lock()
	now = now.Add(2 * time.Minute) // 00:01 UTC: the day is over
	mu.Unlock()
	after, stop2, ok := m.Watch(s.ID())
	if !ok {
		t.Fatal("yesterday's daily cannot be watched after 00:00 UTC")
	}
	defer stop2()
	if f := <-after; string(f) != "today's daily, turn 1" {
		t.Errorf("after the day, the first frame is %q", f)
	}
}
