package tui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/bot"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
)

// finishedReplay returns a game of seed played to its end by the diver
// bot, ready to replay.
func finishedReplay(t *testing.T, seed uint64) ReplayGame {
	t.Helper()
	data := content.Default()
	g := game.New(seed, data)
	diver := bot.Diver("diver", bot.AllItems())
	v := bot.NewView(g)
	for i := 0; i < 20000 && !g.Over(); i++ {
		c := diver.Decide(v)
		if _, err := g.Apply(c); err != nil {
			c = game.Wait()
			if g.Growth().Pending {
				c = game.LevelUp(game.Stat(1))
			}
			if _, err := g.Apply(c); err != nil {
				t.Fatalf("%+v refused: %v", c, err)
			}
		}
		v.Refresh()
	}
	if !g.Over() {
		t.Fatal("the game did not end")
	}
	h, _ := g.HistoryBlob()
	r, err := replay.New(replay.Record{Seed: seed, Rules: game.Rules(data), History: h, Hash: g.StateHash(),
		Points: g.Score(), Cause: g.Cause()}, data)
	if err != nil {
		t.Fatal(err)
	}
	return ReplayGame{ID: 12, Name: "ann", Replay: r, Turns: g.Turn()}
}

// TestTheEndOfAReplayIsReadWholeAt40x12: at the smallest size, the
// replay's end keeps its first line (whose replay, the turn, the end,
// checked); the key hint, last, is what gives way (found by a
// tester).
func TestTheEndOfAReplayIsReadWholeAt40x12(t *testing.T) {
	rg := finishedReplay(t, 247)
	m := NewReplayer(rg, nil)
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	press(m, "G")
	s := plain(m)
	compareGolden(t, "replay-end-40x12", s)
	flat := strings.Join(strings.Fields(s), " ")
	g := rg.Replay.Game()
	for _, want := range []string{"Replay of ann", "turn " + itoa(g.Turn()) + "/" + itoa(rg.Turns), "the end: " + game.ThirdPerson(g.Cause()) + ", checked"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the end of the replay at 40x12 lacks %q:\n%s", want, s)
		}
	}
}

// replayBoard is a score table whose rows all have replays.
type replayBoard []ScoreRow

func (b replayBoard) TopScores(n int) ([]ScoreRow, error) { return b[:min(n, len(b))], nil }

func (b replayBoard) Changes() uint64 { return 0 }

// changingBoard is a score table that games end into while the title
// shows it, counting the reads of it.
type changingBoard struct {
	rows    []ScoreRow
	changes uint64
	reads   int
}

func (b *changingBoard) TopScores(n int) ([]ScoreRow, error) {
	b.reads++
	return slices.Clone(b.rows[:min(n, len(b.rows))]), nil
}

func (b *changingBoard) Changes() uint64 { return b.changes }

// TestTheTitlesScoresFollowTheGamesThatEnd: a game that ends while a
// player rests on the title shows in its Top scores (and its Replays
// pick) at the server's next relist, without a key; the pick's cursor
// stays on the game it was on when a better score comes in above it;
// and the table is read again only when it changed (a community tester's
// title showed one score after five games had ended).
func TestTheTitlesScoresFollowTheGamesThatEnd(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	b := &changingBoard{rows: []ScoreRow{{Name: "ann", Points: 500, Cause: "killed by a rat on depth 2", GameID: 1}}}
	p.Board, p.Replays = b, noReplays{}
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	for range 3 {
		m.Update(RelistMsg{})
	}
	if b.reads != 1 {
		t.Errorf("an unchanged table was read %d times, not once", b.reads)
	}
	b.rows = append(b.rows, ScoreRow{Name: "bob", Points: 90, Cause: "killed by an orc on depth 1", GameID: 2})
	b.changes++
	m.Update(RelistMsg{})
	if s := plain(m); !strings.Contains(s, "2. bob") {
		t.Errorf("the title's scores did not follow a game that ended:\n%s", s)
	}

	press(m, "r")
	press(m, "j") // on bob
	b.rows = append([]ScoreRow{{Name: "cyd", Points: 900, Cause: "escaped with the amulet", GameID: 3}}, b.rows...)
	b.changes++
	m.Update(RelistMsg{})
	s := plain(m)
	if !strings.Contains(s, "1. cyd") {
		t.Errorf("the Replays pick did not follow a game that ended:\n%s", s)
	}
	if !strings.Contains(s, ">  3. bob") {
		t.Errorf("the pick's cursor left the game it was on:\n%s", s)
	}
	if b.reads != 3 {
		t.Errorf("the table was read %d times for 2 changes and the first title, not 3", b.reads)
	}
}

// noReplays opens no game.
type noReplays struct{}

func (noReplays) OpenReplay(uint64) (ReplayGame, error) { return ReplayGame{}, nil }

// TestTheTitlesReplaysPickShowsRowsAt40x12: at the smallest size, Replays
// on the title shows the score rows, the chosen one marked and kept in
// view as ↓ moves down the table (found by a tester).
func TestTheTitlesReplaysPickShowsRowsAt40x12(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:golden", "golden", 247)
	var rows replayBoard
	for i, name := range []string{"ann", "bob", "cid", "dee", "eve", "fay", "gus", "hal", "ivy", "jon"} {
		rows = append(rows, ScoreRow{Name: name, Points: 1000 - 10*i, Cause: "killed by a rat on depth 2", GameID: uint64(i + 1)})
	}
	p.Board, p.Replays = rows, noReplays{}
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	press(m, "r")
	s := plain(m)
	compareGolden(t, "title-replays-40x12", s)
	if !strings.Contains(s, ">  1. ann") || !strings.Contains(s, " 2. bob") {
		t.Errorf("the pick shows no rows at 40x12:\n%s", s)
	}
	for range 9 {
		press(m, "j")
	}
	if s := plain(m); !strings.Contains(s, "> 10. jon") {
		t.Errorf("the chosen row (10) is not in view at 40x12:\n%s", s)
	}
	for _, l := range strings.Split(s, "\n") {
		if n := len([]rune(l)); n > MinWidth {
			t.Errorf("a line of %d columns at %d:\n%s", n, MinWidth, l)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestTheReplaysTurnIsTheGames: the replay's counter is the game's turn,
// as its status line shows it, out of the game's last turn, though level-
// ups (commands that take no turn) are replayed as steps too (tester: the
// replay said turn 1240/1240 of a game of 1232 turns).
func TestTheReplaysTurnIsTheGames(t *testing.T) {
	rg := finishedReplay(t, 247)
	if rg.Replay.Len() == rg.Turns {
		t.Fatalf("the game has no command that takes no turn (%d commands, %d turns)", rg.Replay.Len(), rg.Turns)
	}
	m := NewReplayer(rg, nil)
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	press(m, " ") // pause
	for range 600 {
		press(m, ".")
	}
	check := func(when string) {
		t.Helper()
		s := strings.Join(strings.Fields(plain(m)), " ")
		turn := m.game.Turn()
		if !strings.Contains(s, "Turn: "+itoa(turn)+" ") {
			t.Fatalf("%s: the status line does not show turn %d:\n%s", when, turn, s)
		}
		if want := "turn " + itoa(turn) + "/" + itoa(rg.Turns) + " "; !strings.Contains(s, want) {
			t.Errorf("%s: the replay's counter is not %q:\n%s", when, want, s)
		}
	}
	check("after 600 steps")
	press(m, "G")
	check("at the end")
}

// TestQuestionMarkShowsTheReplaysKeys: the replay's status line offers
// "? help", so ? shows the replay's keys (every one, even at 40x12, where
// the hint after the status is cut), holding the replay still; any key
// goes back to it (tester: ? did nothing there).
func TestQuestionMarkShowsTheReplaysKeys(t *testing.T) {
	rg := finishedReplay(t, 247)
	m := NewReplayer(rg, nil)
	m.Update(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
	press(m, ".")
	at := rg.Replay.Pos()
	press(m, "?")
	s := plain(m)
	compareGolden(t, "replay-keys-40x12", s)
	for _, want := range []string{"Replay keys", "space", "pause", "+ -", "speed", ". →", "step", ">", "next depth", "G End", "the end", "q Esc", "leave"} {
		if !strings.Contains(s, want) {
			t.Errorf("? at 40x12 does not show %q:\n%s", want, s)
		}
	}
	if lines := strings.Count(m.View().Content, "\n") + 1; lines != MinHeight {
		t.Errorf("the keys take %d lines at height %d", lines, MinHeight)
	}
	if m.Update(replayTick{gen: m.scr.(*replayScreen).gen}); rg.Replay.Pos() != at {
		t.Errorf("the replay went on behind its keys: %d → %d", at, rg.Replay.Pos())
	}
	press(m, "x")
	if s := plain(m); !strings.Contains(s, "Replay of ann") || strings.Contains(s, "Replay keys") {
		t.Errorf("a key did not go back to the replay:\n%s", s)
	}
	if rg.Replay.Pos() != at || m.Exit() != 0 {
		t.Errorf("the key that closed the keys did something else: at %d → %d, exit %v", at, rg.Replay.Pos(), m.Exit())
	}
}

// oneReplay opens the same finished game for every row.
type oneReplay struct{ rg ReplayGame }

func (o oneReplay) OpenReplay(uint64) (ReplayGame, error) { return o.rg, nil }

// TestLeavingAReplayGoesBackToThePickAndEscNeverQuitsTheTitle: q out of a
// replay picked on the title comes back to the pick on the same row, and
// Esc there goes back to the menu, where a second Esc does not end the
// session (a tester found two Escapes after a replay closed it).
func TestLeavingAReplayGoesBackToThePickAndEscNeverQuitsTheTitle(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:golden", "golden", 247)
	var rows replayBoard
	for i, name := range []string{"ann", "bob", "cid"} {
		rows = append(rows, ScoreRow{Name: name, Points: 1000 - 10*i, Cause: "killed by a rat", GameID: uint64(i + 1)})
	}
	p.Board, p.Replays = rows, oneReplay{finishedReplay(t, 247)}
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, "r")
	press(m, "j")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "Replay of ann") {
		t.Fatalf("the picked replay does not play:\n%s", s)
	}
	press(m, "q")
	if s := plain(m); !strings.Contains(s, ">  2. bob") {
		t.Errorf("leaving the replay did not come back to the pick on row 2:\n%s", s)
	}
	press(m, "esc")
	press(m, "esc")
	if m.exit != 0 {
		t.Errorf("Esc on the title ended the session (exit %v)", m.exit)
	}
	if s := plain(m); !strings.Contains(s, "New game") {
		t.Errorf("after Esc, Esc the title is gone:\n%s", s)
	}
}

// TestTheReplaysStatusAndKeysFitTheWidth: at 80 and 60 columns, playing,
// paused and at the end, no row of a replay is wider than the terminal
// and its keys read whole on the bottom row, shortened to the width,
// under the replay's status (a community tester: at 80x24 the status and
// its keys ran past 80 columns, the keys broken over two rows).
func TestTheReplaysStatusAndKeysFitTheWidth(t *testing.T) {
	for _, c := range []struct {
		w    int
		keys string
	}{
		{80, "space pause · +/- speed · . step · > next depth · G end · q leave"},
		{60, "space pause · +/- speed · G end · q leave · ? keys"},
	} {
		m := NewReplayer(finishedReplay(t, 247), nil) // each from turn 0
		m.Update(tea.WindowSizeMsg{Width: c.w, Height: 24})
		for _, when := range []struct{ key, want string }{{"", "1×"}, {" ", "paused"}, {"G", "checked"}} {
			if when.key != "" {
				press(m, when.key)
			}
			rows := strings.Split(m.View().Content, "\n")
			for i, r := range rows {
				if w := ansi.StringWidth(r); w > c.w {
					t.Errorf("at %d columns (%q pressed), row %d is %d wide: %q", c.w, when.key, i, w, ansi.Strip(r))
				}
			}
			s := plain(m)
			last := strings.Split(strings.TrimRight(s, " \n"), "\n") // the messages' free rows are below them
			if bottom := last[len(last)-1]; len(rows) != 24 || bottom != c.keys {
				t.Errorf("at %dx24 (%q pressed), %d rows, the last one %q; want the keys %q:\n%s", c.w, when.key, len(rows), bottom, c.keys, s)
			}
			if flat := strings.Join(strings.Fields(s), " "); !strings.Contains(flat, "Replay of ann · turn ") || !strings.Contains(flat, when.want) {
				t.Errorf("at %dx24 (%q pressed), the status lacks %q:\n%s", c.w, when.key, when.want, s)
			}
		}
	}
}
