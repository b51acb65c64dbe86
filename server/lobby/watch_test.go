package lobby

import (
	"strconv"
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
		s.Publish(1, i, "", frame.New([]byte(strconv.Itoa(i)), nil))
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
	if _, open := <-frames; open {
		t.Error("the watcher's channel stays open after the player left")
	}
	stop() // after the release: nothing to close twice
}

func TestANewWatcherStartsWithTheLatestFrame(t *testing.T) {
	m := NewMemory(nil)
	s, _ := m.Claim(Holder{Key: "SHA256:a"})
	s.Publish(2, 7, "", frame.New([]byte("turn 7"), nil))
	frames, stop, _ := m.Watch(s.ID())
	defer stop()
	if f := <-frames; string(f.Blob()) != "turn 7" {
		t.Errorf("first frame %q, want the latest published", f.Blob())
	}
	s.Publish(2, 8, "", frame.New([]byte("turn 8"), nil)) // read at once: nothing dropped
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

// waitLong is the deadline of a wait for something that happens at once
// on an idle machine.
const waitLong = 10 * time.Second
