package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/frame"
)

// A fakeStore's writes say the database is out of reach (errUnavailable)
// while down is set, as store/postgres does while PostgreSQL restarts.
// (The real thing is tested end to end in cmd/grotto and server/session.)

// TestATurnWaitingForStorageIsNotDrawnUntilItIsSaved: with the database
// out of reach the move's new state is not drawn (no status line, no map),
// keys do nothing, and each retry tick tries again; once the store is back
// the next tick draws the turn, and the ticks stop.
func TestATurnWaitingForStorageIsNotDrawnUntilItIsSaved(t *testing.T) {
	ds := newFakeStore()
	m := newModel(t, ds, 7)
	press(m, "enter")
	press(m, ".")
	if s := plain(m); !strings.Contains(s, "Turn: 1") {
		t.Fatalf("not playing:\n%s", s)
	}
	ds.down = true
	tick := press(m, ".")
	w, ok := m.scr.(*waitScreen)
	if !ok || tick == nil {
		t.Fatalf("a turn the store could not take shows screen %T (tick %v):\n%s", m.scr, tick != nil, plain(m))
	}
	if s := plain(m); !strings.Contains(s, "Waiting for storage") || strings.Contains(s, "Turn:") || !strings.Contains(s, "last showed turn 1") {
		t.Fatalf("the waiting screen:\n%s", s)
	}
	press(m, ".")
	if s := plain(m); !strings.Contains(s, "not played") || m.game.Turn() != 2 {
		t.Fatalf("a key while waiting: turn %d in memory (want 2, the waiting one)\n%s", m.game.Turn(), s)
	}
	m.Update(storageRetry{w.stop}) // the database is still down
	if _, ok := m.scr.(*waitScreen); !ok || !strings.Contains(plain(m), "1 tries so far") {
		t.Fatalf("a retry while the database is down:\n%s", plain(m))
	}
	ds.down = false
	_, cmd := m.Update(storageRetry{w.stop})
	if s := plain(m); cmd != nil || !strings.Contains(s, "Turn: 2") || strings.Contains(s, "NOT SAVED") {
		t.Fatalf("once the database is back the turn is not drawn (or ticks go on: %v):\n%s", cmd != nil, s)
	}
	if got := tick(); got != nil { // the wait is over: the pending tick returns at once, with nothing
		t.Errorf("a tick of an ended wait returned %#v", got)
	}
	press(m, ".")
	if s := plain(m); !strings.Contains(s, "Turn: 3") {
		t.Fatalf("play does not go on:\n%s", s)
	}
}

// TestCtrlCWhileWaitingForStorageLeavesAndStopsTheTicks: Ctrl+C ends the
// program at once (the server's end-of-session save is the last try), and
// no retry tick outlives it.
func TestCtrlCWhileWaitingForStorageLeavesAndStopsTheTicks(t *testing.T) {
	ds := newFakeStore()
	m := newModel(t, ds, 7)
	press(m, "enter")
	ds.down = true
	tick := press(m, ".")
	if _, ok := m.scr.(*waitScreen); !ok {
		t.Fatalf("not waiting:\n%s", plain(m))
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("Ctrl+C while waiting did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("Ctrl+C while waiting did not quit")
	}
	m.Close()
	if got := tick(); got != nil {
		t.Errorf("a tick outlived the program: %#v", got)
	}
}

// turnLobby records the turns the model publishes (what `who` and the
// other nodes list).
type turnLobby struct {
	nopLobby
	turns []int
}

func (l *turnLobby) Publish(_ Activity, _, turn int, _ string, _ *frame.Frame) {
	l.turns = append(l.turns, turn)
}

// TestATurnSavedAfterAWaitIsPublished: once a turn that waited for storage
// is saved and drawn, `who` lists it (a host's tester saw `who` keep the
// turn before for thirteen minutes after PostgreSQL came back, until the
// player's next move).
func TestATurnSavedAfterAWaitIsPublished(t *testing.T) {
	ds := newFakeStore()
	p := newPlayer(t, ds, "SHA256:test", "tester", 7)
	l := &turnLobby{}
	p.Lobby = l
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "enter")
	press(m, ".")
	ds.down = true
	press(m, ".")
	w, ok := m.scr.(*waitScreen)
	if !ok {
		t.Fatalf("not waiting:\n%s", plain(m))
	}
	ds.down = false
	m.Update(storageRetry{w.stop})
	if !strings.Contains(plain(m), "Turn: 2") {
		t.Fatalf("the saved turn is not drawn:\n%s", plain(m))
	}
	if n := len(l.turns); n == 0 || l.turns[n-1] != 2 {
		t.Errorf("published turns %v, want the last to be 2", l.turns)
	}
}
