package lobby

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game/frame"
)

// named returns a name function for TakeOver that records its call.
func named(name string, called *bool) func() string {
	return func() string { *called = true; return name }
}

func TestTakeOverPromotesOnlyOnceTheOldHolderWasToldSavedAndReleased(t *testing.T) {
	m := NewMemory(nil)
	told := newEvents()
	old, _ := m.Claim(Holder{Key: "SHA256:a", Notifier: told})
	taker, _ := m.Spectate(Holder{Key: "SHA256:a"})

	var nameRead bool
	done := make(chan error, 1)
	go func() {
		done <- taker.TakeOver(context.Background(), func() string {
			if _, playing := m.OfKey("SHA256:a"); playing {
				t.Error("the name was read (and the taker about to be promoted) while the old holder still played")
			}
			nameRead = true
			return "alice"
		})
	}()

	// The old holder is told...
	if e := told.next(); e != TakenOver {
		t.Fatalf("the old holder was told %v, want TakenOver", e)
	}
	recv(t, "the old holder's slot to be lost", old.Lost())
	// ...and while it saves, the key still has exactly its one player.
	if taker.Player() {
		t.Error("the taker was promoted before the old holder released")
	}
	if g, ok := m.OfKey("SHA256:a"); !ok || g.ID != old.ID() {
		t.Errorf("OfKey while the old holder saves = %+v, %v; want the old holder", g, ok)
	}
	if _, err := m.Claim(Holder{Key: "SHA256:a"}); !errors.Is(err, ErrAlreadyPlaying) {
		t.Errorf("a third session claimed the key during the take-over: %v", err)
	}
	if err := old.Renew(m.now()); !errors.Is(err, ErrLost) {
		t.Errorf("the old holder renews after being told: %v, want ErrLost", err)
	}
	old.Release() // saved

	if err := recv(t, "the take-over to return", done); err != nil {
		t.Fatal(err)
	}
	if !nameRead || !taker.Player() {
		t.Errorf("after the take-over: name read %v, taker plays %v", nameRead, taker.Player())
	}
	if g, ok := m.OfKey("SHA256:a"); !ok || g.ID != taker.ID() || g.Name != "alice" {
		t.Errorf("OfKey after = %+v, %v; want the taker listed as alice", g, ok)
	}
	select {
	case <-taker.Lost():
		t.Error("the new player's slot is lost")
	default:
	}
}

func TestTakeOverWithNoLivePlayerReturnsAtOnce(t *testing.T) {
	m := NewMemory(nil)
	old, _ := m.Claim(Holder{Key: "SHA256:a"})
	taker, _ := m.Spectate(Holder{Key: "SHA256:a"})
	old.Release() // it left before the taker chose
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // nothing to wait for, so even an ended context is enough
	var nameRead bool
	if err := taker.TakeOver(ctx, named("", &nameRead)); err != nil {
		t.Fatal(err)
	}
	if !taker.Player() || !nameRead {
		t.Errorf("taker plays %v, name read %v", taker.Player(), nameRead)
	}
	if g, _ := m.OfKey("SHA256:a"); g.Name != "" {
		t.Errorf("a key that claimed no name is listed as %q", g.Name)
	}
}

func TestTakeOverGivesUpAtItsDeadlineAndLeavesTheKeyFree(t *testing.T) {
	m := NewMemory(nil)
	told := newEvents()
	old, _ := m.Claim(Holder{Key: "SHA256:a", Notifier: told})
	taker, _ := m.Spectate(Holder{Key: "SHA256:a"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var nameRead bool
	go func() { done <- taker.TakeOver(ctx, named("x", &nameRead)) }()
	told.next()
	cancel() // the deadline passes; the old holder never released
	if err := recv(t, "the take-over to return", done); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want the context's", err)
	}
	if taker.Player() || nameRead {
		t.Errorf("a take-over past its deadline promoted the taker (plays %v, name read %v)", taker.Player(), nameRead)
	}
	if g, ok := m.OfKey("SHA256:a"); !ok || g.ID != old.ID() {
		t.Errorf("OfKey = %+v, %v; want the old holder, still playing", g, ok)
	}
	// The old holder leaves late; the key is not reserved any more.
	old.Release()
	if err := taker.TakeOver(context.Background(), named("x", &nameRead)); err != nil || !taker.Player() {
		t.Errorf("a second try: err %v, plays %v", err, taker.Player())
	}
}

func TestASecondTakeOverOfTheSameKeyIsRefusedWhileTheFirstRuns(t *testing.T) {
	m := NewMemory(nil)
	told := newEvents()
	old, _ := m.Claim(Holder{Key: "SHA256:a", Notifier: told})
	first, _ := m.Spectate(Holder{Key: "SHA256:a"})
	second, _ := m.Spectate(Holder{Key: "SHA256:a"})
	done := make(chan error, 1)
	go func() { done <- first.TakeOver(context.Background(), func() string { return "" }) }()
	told.next()
	if err := second.TakeOver(context.Background(), func() string { return "" }); !errors.Is(err, ErrTakingOver) {
		t.Errorf("second take-over: %v, want ErrTakingOver", err)
	}
	old.Release()
	if err := recv(t, "the take-over to return", done); err != nil || !first.Player() || second.Player() {
		t.Errorf("first: err %v, plays %v; second plays %v", err, first.Player(), second.Player())
	}
}

func TestAReleasedSlotCannotTakeOver(t *testing.T) {
	m := NewMemory(nil)
	taker, _ := m.Spectate(Holder{Key: "SHA256:a"})
	taker.Release()
	if err := taker.TakeOver(context.Background(), func() string { return "" }); !errors.Is(err, ErrReleased) {
		t.Errorf("err = %v, want ErrReleased", err)
	}
	if _, ok := m.OfKey("SHA256:a"); ok {
		t.Error("a released slot became its key's player")
	}
}

// A take-over moves the game, not the watchers' window on it: someone
// watching alice's game keeps watching it when alice's key connects again
// and takes it over, and sees the new session's frames, where they used to
// read "alice has left the game" although the game went on.
func TestWatchersFollowTheGameThroughATakeOver(t *testing.T) {
	m := NewMemory(nil)
	told := newEvents()
	old, _ := m.Claim(Holder{Key: "SHA256:a", Name: "alice", Notifier: told})
	old.Publish(playing, 1, 10, "", frame.New([]byte("turn 10"), nil))
	frames, stop, ok := m.Watch(old.ID())
	if !ok {
		t.Fatal("cannot watch alice's game")
	}
	defer stop()
	if f := next(t, frames); string(f.Blob()) != "turn 10" {
		t.Fatalf("first frame %q", f.Blob())
	}
	taker, _ := m.Spectate(Holder{Key: "SHA256:a"})
	done := make(chan error, 1)
	go func() { done <- taker.TakeOver(context.Background(), func() string { return "alice" }) }()
	for e := told.next(); e != TakenOver; e = told.next() { // WatchersChanged came first (0: nothing came)
		if e != WatchersChanged {
			t.Fatalf("the old holder was told %v, want TakenOver", e)
		}
	}
	old.Release() // saved
	if err := recv(t, "the take-over to return", done); err != nil {
		t.Fatal(err)
	}
	taker.Publish(playing, 1, 11, "", frame.New([]byte("turn 11"), nil))
	select {
	case f, open := <-frames:
		if !open {
			t.Fatal("the watcher's channel closed at the take-over: the watcher was told the game ended")
		}
		if string(f.Blob()) != "turn 11" {
			t.Errorf("after the take-over the watcher read %q, want the new session's frame", f.Blob())
		}
	case <-time.After(waitLong):
		t.Fatal("the new session's frame never reached the watcher")
	}
	if g, _ := m.OfKey("SHA256:a"); g.Watchers != 1 {
		t.Errorf("alice's game lists %d watchers after the take-over, want 1", g.Watchers)
	}
	if n := taker.Watchers(); n != 1 {
		t.Errorf("the new session counts %d watchers, want 1", n)
	}
	stop()
	if n := taker.Watchers(); n != 0 {
		t.Errorf("after the watcher left, the new session counts %d watchers, want 0", n)
	}
	taker.Release()
}
