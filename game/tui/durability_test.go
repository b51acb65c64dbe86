package tui

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/store"
)

// flakyStore is a store whose writes of games fail while full is set, as
// on a full disk or past a file-size limit.
type flakyStore struct {
	store.Store
	full bool
}

var errDiskFull = errors.New("no space left on device")

func (f *flakyStore) PutSave(fp string, blob []byte) error {
	if f.full {
		return errDiskFull
	}
	return f.Store.PutSave(fp, blob)
}

func (f *flakyStore) AppendJournal(fp string, seq uint64, entry []byte) error {
	if f.full {
		return errDiskFull
	}
	return f.Store.AppendJournal(fp, seq, entry)
}

// resumeAfterCrash drops m without saving (kill -9) and resumes the
// player's game from what is on disk, as the next session would.
func resumeAfterCrash(t *testing.T, st store.Store) *Model {
	t.Helper()
	m2 := newModel(t, st, 99)
	if !strings.Contains(plain(m2), "Continue") {
		return nil
	}
	press(m2, "enter")
	return m2
}

// TestAFailedWriteNeverLosesTheGame plays toward the stairs, makes every
// write fail for some turns (the player is warned on each of them), lets
// writes succeed again for two more keys, then crashes: the resumed game
// must be exactly the one on screen.
func TestAFailedWriteNeverLosesTheGame(t *testing.T) {
	for _, tc := range []struct {
		name      string
		failFrom  int // the key presses (from the new game) whose writes fail
		failTo    int
		oldSave   bool // the player had another game saved before this one
		atDescent bool // instead, the save of the first new level fails
	}{
		{name: "one journal entry fails mid-level", failFrom: 5, failTo: 6},
		{name: "several turns fail mid-level", failFrom: 5, failTo: 12},
		{name: "the save of a new level fails", failFrom: 1 << 30, atDescent: true},
		{name: "the disk is full when a new game starts", failFrom: -1, failTo: 3},
		{name: "the disk is full when a new game starts over an old save", failFrom: -1, failTo: 3, oldSave: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := &flakyStore{Store: openStore(t)}
			if tc.oldSave {
				old := newModel(t, fs, 3)
				press(old, "enter")
				for range 7 {
					press(old, towardStairs(old))
				}
				if err := old.Persist(); err != nil {
					t.Fatal(err)
				}
			}
			m := newModel(t, fs, 7)
			fs.full = tc.failFrom < 0
			if tc.oldSave {
				press(m, "n") // New game, over the old save
				press(m, "y")
			} else {
				press(m, "enter")
			}
			descents := 0
			for i := 0; i < 400 && m.InProgress(); i++ {
				depth := m.game.Depth()
				key := towardStairs(m)
				if tc.atDescent && key == ">" && descents == 0 {
					fs.full = true // the descent's save fails
				}
				if i == tc.failFrom {
					fs.full = true
				}
				if i == tc.failTo && tc.failTo > 0 {
					fs.full = false
				}
				press(m, key)
				if m.game.Depth() != depth {
					descents++
				}
				if fs.full {
					if note := plain(m); !strings.Contains(note, "Not saved") && !strings.Contains(note, "Could not save") {
						t.Fatalf("turn %d was not saved and the player was not told:\n%s", m.game.Turn(), note)
					}
				}
				if tc.atDescent && descents == 1 && fs.full {
					fs.full = false // the next two keys write again
					press(m, towardStairs(m))
					press(m, towardStairs(m))
					break
				}
				if i == tc.failTo+2 && tc.failTo > 0 {
					break
				}
			}
			if !m.InProgress() {
				t.Fatal("the game ended before the crash; choose another seed")
			}
			want, _ := m.game.Encode()
			m2 := resumeAfterCrash(t, fs)
			if m2 == nil {
				t.Fatalf("after the crash there is no game to continue (the player saw turn %d, depth %d)", m.game.Turn(), m.game.Depth())
			}
			got, _ := m2.game.Encode()
			if !bytes.Equal(want, got) {
				t.Errorf("the resumed game (turn %d, depth %d) differs from the one on screen (turn %d, depth %d)",
					m2.game.Turn(), m2.game.Depth(), m.game.Turn(), m.game.Depth())
			}
		})
	}
}

// TestACrashWhileWritesFailLosesOnlyTheWarnedTurns: with every write
// failing, a crash loses the turns since the last good write, each of which
// was shown with a warning, and resumes at the last turn that was saved.
func TestACrashWhileWritesFailLosesOnlyTheWarnedTurns(t *testing.T) {
	fs := &flakyStore{Store: openStore(t)}
	m := newModel(t, fs, 7)
	press(m, "enter")
	for range 6 {
		press(m, towardStairs(m))
	}
	saved, _ := m.game.Encode()
	fs.full = true
	for range 4 {
		press(m, towardStairs(m))
		if !strings.Contains(plain(m), "Not saved") {
			t.Fatalf("a turn that was not saved showed no warning:\n%s", plain(m))
		}
	}
	fs.full = false
	m2 := resumeAfterCrash(t, fs)
	if m2 == nil {
		t.Fatal("nothing to continue after the crash")
	}
	got, _ := m2.game.Encode()
	if !bytes.Equal(saved, got) {
		t.Errorf("resumed at turn %d, want the last saved turn", m2.game.Turn())
	}
}

// TestTheStatusLineSaysNotSavedUntilASaveSucceeds: the warning stays on the
// status line through keys that cost no turn, the host hears of the trouble
// once when it starts and once when it ends.
func TestTheStatusLineSaysNotSavedUntilASaveSucceeds(t *testing.T) {
	fs := &flakyStore{Store: openStore(t)}
	var heard []error
	m := New(Player{Fingerprint: "SHA256:test", Name: "tester", Store: fs, NewSeed: func() uint64 { return 7 },
		SaveTrouble: func(err error) { heard = append(heard, err) }})
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "enter")
	press(m, towardStairs(m))
	fs.full = true
	press(m, towardStairs(m))
	press(m, towardStairs(m))
	press(m, "<") // costs no turn, and its note replaces the turn's
	if s := plain(m); !strings.Contains(s, "NOT SAVED") {
		t.Errorf("after a key that cost no turn the screen no longer says the game is unsaved:\n%s", s)
	}
	fs.full = false
	press(m, towardStairs(m))
	if s := plain(m); strings.Contains(s, "NOT SAVED") {
		t.Errorf("the game is saved again but the status line says otherwise:\n%s", s)
	}
	if len(heard) != 2 || heard[0] == nil || heard[1] != nil {
		t.Errorf("the host heard %v, want the first failure then nil", heard)
	}
}

// finishFails is a store whose FinishGame fails, as when the database
// refuses the write that records a death.
type finishFails struct {
	store.Store
	fail bool
}

func (f *finishFails) FinishGame(fp string, s store.Score) (int, error) {
	if f.fail {
		return 0, errDiskFull
	}
	return f.Store.FinishGame(fp, s)
}

// TestADeathThatCannotBeRecordedIsNeverUndone: if recording the end fails,
// the save must still end in the dead state, so Continue can never resume
// the turn before the death (issue 11); the next visit records it.
func TestADeathThatCannotBeRecordedIsNeverUndone(t *testing.T) {
	fs := &finishFails{Store: openStore(t), fail: true}
	m := newModel(t, fs, 3)
	press(m, "enter")
	for i := 0; i < 20000 && !m.game.Over(); i++ {
		press(m, towardStairs(m))
	}
	if !m.game.Over() {
		t.Fatal("no end in 20000 turns of diving")
	}
	turn := m.game.Turn()
	m.Persist() // the session ends (or the server crashes: the journal has it)

	next := newModel(t, fs, 99)
	if s := plain(next); strings.Contains(s, "Continue") {
		t.Fatalf("the title offers to continue a game that ended on turn %d:\n%s", turn, s)
	}
	fs.fail = false
	next = newModel(t, fs, 99)
	scores, _ := fs.TopScores(10)
	if len(scores) != 1 || scores[0].Turns != turn {
		t.Errorf("the end was not recorded on the next visit: %+v", scores)
	}
	if s := plain(next); strings.Contains(s, "Continue") || !strings.Contains(s, "Your last game") {
		t.Errorf("title after recording the end:\n%s", s)
	}
}
