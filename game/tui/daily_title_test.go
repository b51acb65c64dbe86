package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
)

// titleOverDaily returns the title of a player whose saved game is the
// daily of date, at w x h.
func titleOverDaily(t *testing.T, date string, w, h int) *Model {
	t.Helper()
	st := newFakeStore()
	p := newPlayer(t, st, "SHA256:daily", "daily", 8)
	m := New(p)
	blob, err := game.NewDaily(247, date, m.p.Data).Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutSave("SHA256:daily", blob); err != nil {
		t.Fatal(err)
	}
	m = New(newPlayer(t, st, "SHA256:daily", "", 8))
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// TestNewGameOverTheDailySaysTheAttemptIsUsedUp: with today's daily saved,
// the title says the save is the daily, and New game warns that the day's
// one attempt goes with it (tester: nothing warned).
func TestNewGameOverTheDailySaysTheAttemptIsUsedUp(t *testing.T) {
	today := testNow.Format("2006-01-02")
	for _, size := range [][2]int{{100, 30}, {80, 24}, {40, 12}} {
		m := titleOverDaily(t, today, size[0], size[1])
		s := plain(m)
		if !strings.Contains(flat(s), "the daily "+today) {
			t.Errorf("%dx%d: the title does not say the save is today's daily:\n%s", size[0], size[1], s)
		}
		press(m, "n")
		s = plain(m)
		if f := flat(s); !strings.Contains(f, "used up") || !strings.Contains(f, "cannot be played again today") {
			t.Errorf("%dx%d: New game does not warn that the daily attempt is used up:\n%s", size[0], size[1], s)
		}
		if lines := strings.Count(m.View().Content, "\n") + 1; lines != size[1] {
			t.Errorf("%dx%d: the confirmation frame has %d lines", size[0], size[1], lines)
		}
		if !strings.Contains(s, "any other key keeps the save") {
			t.Errorf("%dx%d: the hint line is cut off:\n%s", size[0], size[1], s)
		}
		press(m, "x")
		if m.game != nil {
			t.Fatal("a new game started without a yes")
		}
	}
}

// TestTheDailyItemOverTodaysDailyPointsToContinue: choosing Daily
// challenge while today's daily is the save neither asks to throw it away
// nor loses it; it says to continue it.
func TestTheDailyItemOverTodaysDailyPointsToContinue(t *testing.T) {
	m := titleOverDaily(t, testNow.Format("2006-01-02"), 80, 24)
	m.p.Daily = refusingDaily{}
	m.scr = newTitle(m, "")
	press(m, "d")
	s := flat(plain(m))
	if strings.Contains(s, "will be lost") || !strings.Contains(s, "Continue") {
		t.Errorf("Daily challenge over today's daily:\n%s", plain(m))
	}
}

// TestAnOlderDailySaveIsNamedByItsDate: a daily of an earlier day is named
// by its date, and New game says it is lost for good.
func TestAnOlderDailySaveIsNamedByItsDate(t *testing.T) {
	m := titleOverDaily(t, "2026-11-29", 80, 24)
	if s := plain(m); !strings.Contains(s, "the daily 2026-11-29") {
		t.Errorf("the title does not name the older daily:\n%s", s)
	}
	press(m, "n")
	if s := flat(plain(m)); !strings.Contains(s, "2026-11-29") || strings.Contains(s, "again today") {
		t.Errorf("New game over an older daily:\n%s", plain(m))
	}
}

// refusingDaily is a Daily whose attempt today is taken.
type refusingDaily struct{}

func (refusingDaily) StartDaily() error { return errTaken }

var errTaken = errString("Today's daily is done.")

type errString string

func (e errString) Error() string { return string(e) }

// flat joins a screen's lines, trimmed, with spaces, so that a wrapped
// sentence reads whole.
func flat(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			b.WriteString(l + " ")
		}
	}
	return b.String()
}

// startingDaily is a Daily whose attempt is always free: it starts the
// daily of testNow's day in play, as the server's does.
type startingDaily struct{ play *fakePlay }

func (d startingDaily) StartDaily() error {
	return d.play.StartDaily(4711, testNow.Format("2006-01-02"))
}

// withDaily returns the title of the player of st, seed 8, whose Daily
// starts today's.
func withDaily(t *testing.T, st *fakeStore) *Model {
	t.Helper()
	m := New(newPlayer(t, st, "SHA256:test", "", 8))
	m.p.Daily = startingDaily{m.p.Play.(*fakePlay)}
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.scr = newTitle(m, "")
	return m
}

// choose moves the title's cursor to the item named label and selects it.
func choose(t *testing.T, m *Model, label string) {
	t.Helper()
	for range 20 {
		if strings.Contains(plain(m), "> "+label) {
			press(m, "enter")
			return
		}
		press(m, "down")
	}
	t.Fatalf("no %q on the title:\n%s", label, plain(m))
}

// TestTheDailyKeepsTheGameOfYourOwn: a player with a game of their own
// starts the daily without being asked to give it up, plays and leaves;
// the title then offers to continue either, and each resumes to itself
// (a key holds one of each).
func TestTheDailyKeepsTheGameOfYourOwn(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 7)
	press(m, "enter")
	press(m, ".")
	m.p.Play.Save()

	m = withDaily(t, st)
	press(m, "d")
	if m.game == nil || m.game.Daily() != testNow.Format("2006-01-02") {
		t.Fatalf("Daily challenge over a save of one's own did not start the daily:\n%s", plain(m))
	}
	press(m, ".")
	press(m, ".")
	m.p.Play.Save()

	m = withDaily(t, st)
	s := plain(m)
	if !strings.Contains(s, "Continue your game") || !strings.Contains(s, "Continue today's daily") {
		t.Fatalf("the title does not offer both games:\n%s", s)
	}
	choose(t, m, "Continue your game")
	if m.game == nil || m.game.Seed() != 7 || m.game.Turn() != 1 || m.game.Daily() != "" {
		t.Fatalf("Continue your game resumed another game:\n%s", plain(m))
	}

	m = withDaily(t, st)
	choose(t, m, "Continue today's daily")
	if m.game == nil || m.game.Daily() == "" || m.game.Turn() != 2 {
		t.Fatalf("Continue today's daily resumed another game:\n%s", plain(m))
	}

	m = withDaily(t, st)
	press(m, "d") // today's is kept: nothing to start, nothing lost
	if s := flat(plain(m)); strings.Contains(s, "will be lost") || !strings.Contains(s, "Continue today's daily") {
		t.Errorf("Daily challenge with today's daily kept:\n%s", plain(m))
	}
}

// playingLobby is the lobby of a key whose other session plays a game of
// date's daily ("" for a game of its own); taking it over succeeds.
type playingLobby struct {
	nopLobby
	daily string
}

func (l playingLobby) Mine() (LiveGame, bool) {
	return LiveGame{ID: 3, Activity: Activity{Doing: Playing}, Depth: 1, Daily: l.daily}, true
}

// TestATakeOverCarriesOnTheGameTheOtherSessionPlayed: with a game of its
// own and today's daily both kept, taking over the other session resumes
// the one it played, not always the game of its own.
func TestATakeOverCarriesOnTheGameTheOtherSessionPlayed(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 7)
	press(m, "enter")
	press(m, ".")
	m.p.Play.Save()
	m = withDaily(t, st)
	press(m, "d")
	press(m, ".")
	press(m, ".")
	m.p.Play.Save()
	for _, tc := range []struct {
		name, daily string
		turn        int
	}{
		{"a take-over of the daily carries on the daily", testNow.Format("2006-01-02"), 2},
		{"a take-over of the game of its own carries on that game", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlayer(t, st, "SHA256:test", "", 8)
			p.Lobby, p.Conflict = playingLobby{daily: tc.daily}, true
			m := New(p)
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			runCmd(m, press(m, "t"))
			if m.game == nil || m.game.Daily() != tc.daily || m.game.Turn() != tc.turn {
				t.Fatalf("the take-over resumed another game:\n%s", plain(m))
			}
		})
	}
}
