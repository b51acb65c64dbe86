package lobby

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game/frame"
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
		s.Publish(playing, 1, i, "", frame.New([]byte(strconv.Itoa(i)), nil))
	}
	read := 0
	deadline := time.After(waitLong)
	for newest := false; !newest; read++ {
		select {
		case f := <-frames:
			newest = string(f.Blob()) == "999"
		case <-deadline:
			t.Fatal("the newest frame never reached the watcher")
		}
	}
	if read > 2 { // the newest, and at most the one it replaced in flight
		t.Errorf("a watcher that read nothing while 1,000 frames went out then read %d frames, want only the newest", read)
	}
	if n := m.DroppedFrames(); n > 999 {
		t.Errorf("dropped frames = %d, more than were published unread", n)
	}
	if got := m.Games()[0]; got.Turn != 999 || got.Depth != 1 || got.Watchers != 1 || got.Name != "alice" {
		t.Errorf("list = %+v", got)
	}
	s.Release()
	select {
	case _, open := <-frames:
		if open {
			t.Error("the watcher's channel stays open after the player left")
		}
	case <-time.After(waitLong):
		t.Errorf("the watcher's channel stays open %v after the player left", waitLong)
	}
	stop() // after the release: nothing to close twice
}

func TestANewWatcherStartsWithTheLatestFrame(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a"})
	s.Publish(playing, 2, 7, "", frame.New([]byte("turn 7"), nil))
	frames, stop, _ := m.Watch(s.ID())
	defer stop()
	if f := next(t, frames); string(f.Blob()) != "turn 7" {
		t.Errorf("first frame %q, want the latest published", f.Blob())
	}
	s.Publish(playing, 2, 8, "", frame.New([]byte("turn 8"), nil)) // read at once: nothing dropped
	next(t, frames)
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

// waitLong is the deadline of a wait for something that happens at once
// on an idle machine.
const waitLong = 10 * time.Second

// TestTodaysDailyIsNeverWatched: a game of today's daily challenge (UTC)
// cannot be watched: Watch refuses it, a watcher of the game before it
// became the daily sees its channel close without a frame of the daily,
// and once the day is over (00:00 UTC) it may be watched like any game
// (as its replay may be). The key's own second session sees it
// all along (WatchOwn).
func TestTodaysDailyIsNeverWatched(t *testing.T) {
	now := time.Date(2026, 12, 2, 23, 59, 0, 0, time.UTC)
	var mu sync.Mutex
	m := NewMemory(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	told := newEvents()
	s, _ := m.Claim(Holder{Key: "SHA256:a", Name: "ann", Notifier: told})
	s.Publish(playing, 1, 3, "", frame.New([]byte("a game of its own"), nil))
	before, stop, ok := m.Watch(s.ID())
	if !ok {
		t.Fatal("cannot watch a game of its own")
	}
	defer stop()
	recv(t, "the player to be told of its watcher", told)
	if f := next(t, before); string(f.Blob()) != "a game of its own" {
		t.Fatalf("first frame %q", f.Blob())
	}
	s.Publish(playing, 1, 0, "2026-12-02", frame.New([]byte("today's daily"), nil))
	select {
	case f, open := <-before:
		if open {
			t.Errorf("a watcher got a frame of today's daily: %q", f.Blob())
		}
	case <-time.After(waitLong):
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
	next(t, own)
	s.Publish(playing, 1, 1, "2026-12-02", frame.New([]byte("today's daily, turn 1"), nil))
	if f := next(t, own); string(f.Blob()) != "today's daily, turn 1" {
		t.Errorf("the key's own watcher got %q", f.Blob())
	}

	mu.Lock()
	now = now.Add(2 * time.Minute) // 00:01 UTC: the day is over
	mu.Unlock()
	after, stop2, ok := m.Watch(s.ID())
	if !ok {
		t.Fatal("yesterday's daily cannot be watched after 00:00 UTC")
	}
	defer stop2()
	if f := next(t, after); string(f.Blob()) != "today's daily, turn 1" {
		t.Errorf("after the day, the first frame is %q", f.Blob())
	}
}

// next returns the next frame on frames, failing the test after waitLong.
func next(t *testing.T, frames <-chan *frame.Frame) *frame.Frame {
	t.Helper()
	select {
	case f, ok := <-frames:
		if !ok {
			t.Fatal("the watcher's channel closed")
		}
		return f
	case <-time.After(waitLong):
		t.Fatal("no frame came")
	}
	return nil
}
