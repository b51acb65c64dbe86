package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// What the player reads when the session cannot keep a turn durable. The
// durability itself (every turn on disk before it is drawn, a failed write
// never losing a game, an end that cannot be recorded never undone) is
// tested in server/session.

// TestTheStatusLineSaysNotSavedUntilASaveSucceeds: every unsaved turn says
// so under the map, the warning stays on the status line through keys that
// cost no turn, and goes when a save succeeds.
func TestTheStatusLineSaysNotSavedUntilASaveSucceeds(t *testing.T) {
	fs := newFakeStore()
	m := New(newPlayer(t, fs, "SHA256:test", "tester", 7))
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "enter")
	press(m, towardStairs(m))
	fs.SetFull(true)
	for range 2 {
		press(m, towardStairs(m))
		if s := plain(m); !strings.Contains(s, "Not saved: the server could not write its database") || !strings.Contains(s, "NOT SAVED") {
			t.Fatalf("a turn that was not saved did not say so:\n%s", s)
		}
	}
	press(m, "<") // costs no turn, and its note replaces the turn's
	if s := plain(m); !strings.Contains(s, "NOT SAVED") {
		t.Errorf("after a key that cost no turn the screen no longer says the game is unsaved:\n%s", s)
	}
	press(m, "S")
	if s := plain(m); m.Exit() == ExitSaved || !strings.Contains(s, "press S to try again") {
		t.Errorf("S with a full disk left, or said nothing:\n%s", s)
	}
	fs.SetFull(false)
	press(m, towardStairs(m))
	if s := plain(m); strings.Contains(s, "NOT SAVED") {
		t.Errorf("the game is saved again but the status line says otherwise:\n%s", s)
	}
}

// TestAnEndThatCannotBeRecordedSaysSoAndTheTitleRecordsItLater.
func TestAnEndThatCannotBeRecordedSaysSoAndTheTitleRecordsItLater(t *testing.T) {
	fs := newFakeStore()
	m := newModel(t, fs, 3)
	press(m, "enter")
	for i := 0; i < 20000 && m.InProgress(); i++ {
		if i == 30 {
			fs.SetFull(true)
		}
		press(m, towardStairs(m))
	}
	if m.InProgress() {
		t.Fatal("no end in 20000 turns of diving")
	}
	if s := plain(m); !strings.Contains(s, "Your score could not be recorded") {
		t.Errorf("game over with the end unrecorded:\n%s", s)
	}
	fs.SetFull(false)
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "Your last game ended") || strings.Contains(s, "Continue") {
		// Nothing was written since turn 30: the title can only record the
		// end from the final state the session kept in memory.
		t.Errorf("title after the store came back:\n%s", s)
	}
}
