package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// dive plays m's game down the stairs, fighting what is in the way, until
// it ends.
func dive(t *testing.T, m *Model) {
	t.Helper()
	for i := 0; i < 20000 && !m.game.Over(); i++ {
		press(m, towardStairs(m))
	}
	if !m.game.Over() {
		t.Fatalf("no end in 20000 turns of diving:\n%s", plain(m))
	}
}

// TestTheGameOverScreenShowsHowYouDiedAndTheLog: the cause says what hit
// you and for how much, the last messages are on the screen, v opens the
// whole log and leaving it comes back.
func TestTheGameOverScreenShowsHowYouDiedAndTheLog(t *testing.T) {
	m := newModel(t, newFakeStore(), 248) // dies to a blow (since the balance pass seed 247 dies to an arrow)
	press(m, "enter")
	dive(t, m)
	if m.game.Won() {
		t.Fatal("seed 248 escaped; pick a seed that dies")
	}
	s := strings.Join(strings.Fields(plain(m)), " ")
	if !strings.Contains(s, "(it hit you for") && !strings.Contains(s, "(1 HP a turn)") && !strings.Contains(s, "(your own") {
		t.Errorf("the cause does not say how:\n%s", plain(m))
	}
	last := m.game.Message(m.game.LogLen() - 1).Text
	before := m.game.Message(m.game.LogLen() - 2).Text
	if !strings.Contains(s, "Last messages") || !strings.Contains(s, last) || !strings.Contains(s, before) {
		t.Errorf("the last messages (%q, %q) are not shown:\n%s", before, last, plain(m))
	}
	press(m, "v")
	if _, ok := m.scr.(*logScreen); !ok || !strings.Contains(plain(m), "Message log") {
		t.Fatalf("v on the game-over screen: %T\n%s", m.scr, plain(m))
	}
	press(m, "esc")
	if _, ok := m.scr.(*gameOverScreen); !ok {
		t.Errorf("Esc from the log went to %T, want the game-over screen", m.scr)
	}
	for _, size := range [][2]int{{40, 12}, {80, 24}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(plain(m), "\n")
		flat := strings.Join(strings.Fields(plain(m)), " ")
		if len(lines) != size[1] || !strings.Contains(flat, "You died.") || !strings.Contains(flat, "v: ") ||
			!strings.Contains(flat, before) || !strings.Contains(flat, last) {
			t.Errorf("%dx%d: game over does not fit with the last two messages:\n%s", size[0], size[1], plain(m))
		}
	}
}

// TestTheStatusLineWarnsOfLowHealth: below a third of your HP the status
// line says LOW HP in red, at every width.
func TestTheStatusLineWarnsOfLowHealth(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, editSave(t, m.game, func(state map[string]any) {
		state["Actors"].([]any)[0].(map[string]any)["HP"] = 9
	}))
	for _, w := range []int{40, 80} {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		emu := cells(t, m)
		mapRows, _ := m.layout()
		line := strings.Split(plain(m), "\n")[mapRows]
		if !strings.Contains(line, "9/30 LOW") {
			t.Errorf("%d columns: no LOW HP in %q", w, line)
		}
		if c := emu.CellAt(0, mapRows); c == nil || c.Style.Fg == nil {
			t.Errorf("%d columns: HP is not coloured", w)
		} else if r, g, _, _ := c.Style.Fg.RGBA(); r>>8 < 200 || g>>8 > 100 {
			t.Errorf("%d columns: HP colour %v is not red", w, c.Style.Fg)
		}
	}
}

// countingDaily is a Daily whose every board holds n scores.
type countingDaily struct {
	refusingDaily
	n int
}

func (d countingDaily) DailyEntries(string) (int, error) { return d.n, nil }

// TestTheDailysGameOverNamesTheDailyBoard: a daily's score goes on the
// day's board, not the main table, and its game-over screen says so, with
// the place and the board's size.
func TestTheDailysGameOverNamesTheDailyBoard(t *testing.T) {
	today := testNow.Format("2006-01-02")
	m := titleOverDaily(t, today, 80, 24)
	m.p.Daily = countingDaily{n: 14}
	press(m, "enter") // continue the daily
	if m.game == nil || m.game.Daily() != today {
		t.Fatalf("Enter did not continue the daily:\n%s", plain(m))
	}
	dive(t, m)
	flat := strings.Join(strings.Fields(plain(m)), " ")
	if want := "Your score is on today's daily board, " + today + ": 1st of 14"; !strings.Contains(flat, want) {
		t.Errorf("the daily's game over lacks %q:\n%s", want, plain(m))
	}
	if strings.Contains(flat, "high-score table") {
		t.Errorf("the daily's game over names the main table:\n%s", plain(m))
	}
}

func TestTheGameOverSaysHowYouDiedInOneSentence(t *testing.T) {
	for cause, want := range map[string]string{
		"killed by an orc on depth 2 (it hit you for 4)": "You were killed by an orc on depth 2 (it hit you for 4)",
		"starved to death on depth 3":                    "You starved to death on depth 3",
	} {
		if got := youDied(cause); got != want {
			t.Errorf("youDied(%q) = %q, want %q", cause, got, want)
		}
	}
}
