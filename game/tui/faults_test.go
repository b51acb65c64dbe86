package tui

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"

	"strings"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// TestKeysDoNothingWhileTheTerminalIsTooSmall: with the map hidden behind
// "please enlarge", keys play no turn; Ctrl+C still saves and
// leaves.
func TestKeysDoNothingWhileTheTerminalIsTooSmall(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	m.Update(tea.WindowSizeMsg{Width: 30, Height: 10})
	for _, k := range []string{".", ".", "l", "j", "i", "?"} {
		press(m, k)
	}
	if m.game.Turn() != 0 {
		t.Errorf("%d turns played with the map hidden", m.game.Turn())
	}
	if _, ok := m.scr.(*playScreen); !ok {
		t.Errorf("a key left the play screen while it was hidden: %T", m.scr)
	}
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	press(m, ".")
	if m.game.Turn() != 1 {
		t.Errorf("at 80x24 a wait played %d turns, want 1", m.game.Turn())
	}
	m.Update(tea.WindowSizeMsg{Width: 30, Height: 10})
	if _, cmd := m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}); cmd == nil || m.Exit() != ExitSaved {
		t.Errorf("Ctrl+C on the small screen: exit %v", m.Exit())
	}
	if !strings.Contains(plain(m), "enlarge") {
		t.Error("the small screen is gone")
	}
}

// withoutMonsters returns g with every actor but the player removed and no
// monster arriving for game.WanderMaxTurns turns (more than any of its
// tests plays), made the way a save would carry it.
func withoutMonsters(t *testing.T, g *game.Game) *game.Game {
	t.Helper()
	return editSave(t, g, func(state map[string]any) {
		state["Actors"] = state["Actors"].([]any)[:1]
		state["Wander"] = game.WanderMaxTurns // and none arriving (game/wander.go) for the longest countdown a save may hold
	})
}

// noArrivals puts off m's next arrival by game.WanderMaxTurns turns again,
// for a test that plays longer than that without monsters (withoutMonsters).
func noArrivals(t *testing.T, m *Model) {
	t.Helper()
	if m.game.WanderIn() < game.WanderMaxTurns/2 {
		adopt(t, m, editSave(t, m.game, func(state map[string]any) { state["Wander"] = game.WanderMaxTurns }))
	}
}

// editSave returns g passed through its save with edit applied to the
// saved state.
func editSave(t *testing.T, g *game.Game, edit func(state map[string]any)) *game.Game {
	t.Helper()
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var snap map[string]any
	if err := json.Unmarshal(blob[10:], &snap); err != nil {
		t.Fatal(err)
	}
	edit(snap["State"].(map[string]any))
	body, _ := json.Marshal(snap)
	out := append(append([]byte(nil), blob[:10]...), body...)
	binary.BigEndian.PutUint32(out[6:], crc32.ChecksumIEEE(body))
	g2, err := game.Decode(out, content.Default())
	if err != nil {
		t.Fatal(err)
	}
	return g2
}

// TestAFireballThatWouldBurnYouAsksTwice: with no monster in view the
// cursor starts on you; Enter warns and burns nothing, a second Enter
// fires; a blast clear of you fires at once.
func TestAFireballThatWouldBurnYouAsksTwice(t *testing.T) {
	m := newModel(t, newFakeStore(), fireballSeed)
	press(m, "enter")
	walkTo(t, m, game.FireballScroll)
	press(m, "g")
	adopt(t, m, withoutMonsters(t, m.game))
	hp := m.game.Player().HP
	press(m, "i")
	press(m, "a")
	press(m, "enter")
	if s := plain(m); !strings.Contains(s, "This will hit you too. Enter again to confirm.") {
		t.Errorf("no warning before burning yourself:\n%s", s)
	}
	if _, ok := m.scr.(*targetScreen); !ok || m.game.Player().HP != hp {
		t.Fatalf("the first Enter fired: HP %d → %d", hp, m.game.Player().HP)
	}
	press(m, "l") // moving the cursor asks again
	press(m, "enter")
	if _, ok := m.scr.(*targetScreen); !ok || m.game.Player().HP != hp {
		t.Fatalf("Enter after moving the cursor fired without a warning: HP %d → %d", hp, m.game.Player().HP)
	}
	press(m, "enter")
	if m.game.Player().HP != hp-game.FireballDamage {
		t.Errorf("the confirming Enter did not fire: HP %d → %d", hp, m.game.Player().HP)
	}
}

// TestTheCursorShowsWithoutColours: on a terminal without colours or
// attributes (TERM=dumb: colour profile NoTTY, which drops even reverse
// video) the look cursor is an X on the map, and the terminal's own
// cursor stands on it on every terminal.
func TestTheCursorShowsWithoutColours(t *testing.T) {
	for _, profile := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.Ascii} {
		m := newModel(t, newFakeStore(), 247)
		m.Update(tea.ColorProfileMsg{Profile: profile})
		press(m, "enter")
		press(m, "/")
		press(m, "l")
		ts := m.scr.(*targetScreen)
		x, y := ts.cursor.X-ts.back.cam.x, ts.cursor.Y-ts.back.cam.y
		lines := strings.Split(plain(m), "\n")
		if got := []rune(lines[y])[x]; got != 'X' {
			t.Errorf("%v: the cursor cell shows %q, want X:\n%s", profile, got, plain(m))
		}
		if c := m.View().Cursor; c == nil || c.X != x || c.Y != y {
			t.Errorf("%v: terminal cursor %+v, want at %d,%d", profile, c, x, y)
		}
		press(m, "esc")
		if m.View().Cursor != nil {
			t.Errorf("%v: the terminal cursor stays after looking", profile)
		}
	}
}

// changingLobby is a lobby whose list of games a test can change.
type changingLobby struct {
	nopLobby
	games *[]LiveGame
}

func (l changingLobby) Games() []LiveGame { return *l.games }

// TestTheTitleListOfGamesHasHeadingsAndRefreshes: the "Playing now" list
// names its columns, shows a session on the title screen as such (it was
// "- -" alone), and follows the lobby on the periodic check the server sends.
func TestTheTitleListOfGamesHasHeadingsAndRefreshes(t *testing.T) {
	games := []LiveGame{{ID: 1, Name: "bob", Depth: 2, Turn: 40, LastInput: testNow}, {ID: 2, Name: "ann", LastInput: testNow}}
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Lobby = changingLobby{games: &games}
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	s := plain(m)
	for _, want := range []string{"name", "depth", "turn", "idle", "watchers", "on the title"} {
		if !strings.Contains(s, want) {
			t.Errorf("the list lacks %q:\n%s", want, s)
		}
	}
	for _, line := range strings.Split(s, "\n") { // dashes alone said nothing ("- -"): the row says what it does
		if strings.Contains(line, "ann") && !strings.Contains(line, "on the title") {
			t.Errorf("a session on the title is not shown as such: %q", line)
		}
	}
	games = append(games, LiveGame{ID: 3, Name: "cyd", Depth: 5, Turn: 900, LastInput: testNow})
	m.Update(IdleCheckMsg{})
	if s := plain(m); !strings.Contains(s, "cyd") {
		t.Errorf("the list did not follow the lobby:\n%s", s)
	}
}

// TestTheListsOfGamesFollowTheServersRelist: the server's RelistMsg (every
// few seconds, to sessions with no game open) refreshes the title's
// "Playing now" and the watch list, whose cursor stays on the game it was
// on (a community tester saw a title list that never changed).
func TestTheListsOfGamesFollowTheServersRelist(t *testing.T) {
	games := []LiveGame{{ID: 1, Name: "bob", Depth: 2, Turn: 40, LastInput: testNow}}
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Lobby = changingLobby{games: &games}
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	games = append(games, LiveGame{ID: 3, Name: "cyd", Depth: 5, Turn: 900, LastInput: testNow})
	m.Update(RelistMsg{})
	if s := plain(m); !strings.Contains(s, "cyd") {
		t.Errorf("the title's list did not follow the relist:\n%s", s)
	}

	w := newWatchList(m, m.scr)
	m.scr = w
	press(m, "down") // on cyd
	games = []LiveGame{{ID: 0, Name: "abe", Depth: 1, Turn: 3, LastInput: testNow}, games[0], games[1]}
	m.Update(RelistMsg{})
	s := plain(m)
	if !strings.Contains(s, "abe") {
		t.Errorf("the watch list did not follow the relist:\n%s", s)
	}
	if !strings.Contains(s, "> cyd") {
		t.Errorf("the cursor left the game it was on:\n%s", s)
	}
}

// TestPlayingNowFillsTheRowsTheTitleLeaves: on a tall terminal the
// title's "Playing now" lists as many games as fit beside the menu and
// the score table, then "… and N more" (a community tester's 100x50
// showed three games over 30 blank rows); the scores stay whole, and the
// screen never grows past the terminal.
func TestPlayingNowFillsTheRowsTheTitleLeaves(t *testing.T) {
	var games []LiveGame
	for i := range 60 {
		games = append(games, LiveGame{ID: uint64(i + 1), Name: fmt.Sprintf("p%02d", i), Depth: 1, Turn: 10, LastInput: testNow})
	}
	st := newFakeStore()
	for i := range 12 {
		st.scores = append(st.scores, fakeScore{ScoreRow: ScoreRow{Name: fmt.Sprintf("s%02d", i), Points: 100 - i, Cause: "killed by a rat"}})
	}
	p := newPlayer(t, st, "SHA256:test", "tester", 1)
	p.Lobby = changingLobby{games: &games}
	m := New(p)
	for _, h := range []int{30, 40, 50} {
		m.Update(tea.WindowSizeMsg{Width: 100, Height: h})
		s := plain(m)
		if n := strings.Count(s, "\n") + 1; n > h {
			t.Errorf("at 100x%d the title takes %d lines:\n%s", h, n, s)
		}
		shown := strings.Count(s, "  p")
		if !strings.Contains(s, fmt.Sprintf("… and %d more", 60-shown)) || !strings.Contains(s, "1. s00") {
			t.Errorf("at 100x%d, %d games shown but not the rest counted, or no scores:\n%s", h, shown, s)
		}
		if h == 50 && (shown < 20 || !strings.Contains(s, "10. s09")) {
			t.Errorf("at 100x50 only %d games are shown:\n%s", shown, s)
		}
	}
	games = games[:5]
	m.Update(RelistMsg{})
	if s := plain(m); strings.Contains(s, "more") || strings.Count(s, "  p") != 5 {
		t.Errorf("five games at 100x50 are not all shown:\n%s", s)
	}
}
