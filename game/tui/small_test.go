package tui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/frame"
)

// listLobby is a lobby whose only other game has been idle for 5 minutes
// by the player's injected clock.
type listLobby struct {
	nopLobby
	games []LiveGame
}

func (l listLobby) Games() []LiveGame { return l.games }

// TestTheWatchListReadsTheInjectedClock: idle times in the watch list come
// from Player.Now, as everywhere else, not the wall clock.
func TestTheWatchListReadsTheInjectedClock(t *testing.T) {
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	lobby := listLobby{games: []LiveGame{{ID: 7, Name: "bob", Depth: 2, Turn: 40, LastInput: now.Add(-5 * time.Minute)}}}
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Lobby, p.Now = lobby, func() time.Time { return now }
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "w")
	if s := plain(m); !strings.Contains(s, "5m") {
		t.Errorf("bob idle for 5 minutes by the injected clock; the list shows:\n%s", s)
	}
}

// TestEveryMessageKindHasItsOwnStyle: heal and status messages were drawn
// in the default white.
func TestEveryMessageKindHasItsOwnStyle(t *testing.T) {
	th := newTheme(colorprofile.TrueColor)
	for k := game.MsgInfo; k <= game.MsgStatus; k++ {
		if _, ok := th.msg[k]; !ok {
			t.Errorf("message kind %d has no style", k)
		}
	}
}

// mineLobby is the lobby of a second session of a key: its other session,
// unnamed, ends as soon as it is watched.
type mineLobby struct{ nopLobby }

func (mineLobby) Mine() (LiveGame, bool) { return LiveGame{ID: 3}, true }
func (mineLobby) Watch(uint64) (<-chan *frame.Frame, func(), bool) {
	ch := make(chan *frame.Frame)
	close(ch)
	return ch, func() {}, true
}

// TestWatchingYourOwnSessionUntilItEndsLeadsBackToPlaying: the unnamed
// other session is named in words, and once it has ended, q does not go
// back to "this key is already playing" as if it still did (found by a
// hostile tester).
func TestWatchingYourOwnSessionUntilItEndsLeadsBackToPlaying(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Lobby, p.Conflict = mineLobby{}, true
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	cmd := press(m, "w")
	if s := plain(m); !strings.Contains(s, "a new player") || strings.Contains(s, "for 's") {
		t.Errorf("watching an unnamed session:\n%s", s)
	}
	m.Update(cmd()) // the frames channel closed: the session ended
	press(m, "q")
	if s := plain(m); !strings.Contains(s, "has ended") {
		t.Errorf("back from watching a session that ended:\n%s", s)
	}
}

// TestTheChosenMenuRowIsMarkedWithoutColours: with TERM=dumb or colour
// "none" reverse video and colours are gone, so the title's and the
// settings' chosen rows carry a mark (a tester's finding).
func TestTheChosenMenuRowIsMarkedWithoutColours(t *testing.T) {
	m := newModel(t, newFakeStore(), 1)
	m.Update(tea.ColorProfileMsg{Profile: colorprofile.NoTTY})
	press(m, "j")
	if s := plain(m); !strings.Contains(s, "> Settings") && !strings.Contains(s, "> Watch") && !strings.Contains(s, "> Quit") {
		t.Errorf("the title's chosen row is not marked:\n%s", s)
	}
	press(m, "o")
	if s := plain(m); !strings.Contains(s, "> Symbols") {
		t.Errorf("the settings' chosen row is not marked:\n%s", s)
	}
}

// strandedLobby is the lobby of a session whose key's game is on a node
// that does not answer: its take-over waits, telling the player so.
type strandedLobby struct {
	nopLobby
	took chan struct{}
}

func (l strandedLobby) TakeOver() error { close(l.took); return nil }

// TestAStrandedPlayerReadsTheWholeWaitAndResumesWithoutAKey: the session
// starts already taking the game over (no key to press), shows the note
// wrapped to the terminal, keeps showing the lobby's notes while it waits,
// and then carries on.
func TestAStrandedPlayerReadsTheWholeWaitAndResumesWithoutAKey(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	took := make(chan struct{})
	p.Lobby, p.Conflict = strandedLobby{took: took}, true
	p.Stranded = "Node node-a, where your game was open, does not answer. Your game resumes here by itself once that node's claim on it lapses: within 15s."
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	s := plain(m)
	if got := strings.Join(strings.Fields(s), " "); !strings.Contains(got, p.Stranded) {
		t.Errorf("the note is not all on screen:\n%s", s)
	}
	for _, line := range strings.Split(s, "\n") {
		if w := ansi.StringWidth(strings.TrimRight(line, " ")); w > 60 {
			t.Errorf("a line %d columns wide at 60 columns (the terminal cuts it):\n%s", w, line)
		}
	}
	m.Update(TakeOverNoteMsg{Note: "Node node-a did not release your game; waiting for it (within 15s)."})
	if !strings.Contains(plain(m), "did not release") {
		t.Errorf("a later note is not shown:\n%s", plain(m))
	}
	press(m, "l") // keys do nothing while it waits
	if m.exit != 0 {
		t.Fatalf("a key ended the wait: exit %v", m.exit)
	}
	runCmd(m, m.Init())
	select {
	case <-took:
	default:
		t.Fatal("the stranded session never started taking its game over")
	}
	if s := plain(m); strings.Contains(s, "does not answer") {
		t.Errorf("still waiting once the take-over is done:\n%s", s)
	}
}

// runCmd runs cmd as Bubble Tea would, batches included, and hands every
// message it returns to m.
func runCmd(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			runCmd(m, c)
		}
	default:
		_, next := m.Update(msg)
		if _, ok := msg.(takeOverDone); ok {
			runCmd(m, next)
		}
	}
}

// TestTheDailyIsLabelledWhilePlaying: the status line says the game is
// the daily challenge, at every size down to 40x12, without cutting a
// figure (found by a tester).
func TestTheDailyIsLabelledWhilePlaying(t *testing.T) {
	m := goldenModel(t, 80, 24, "enter")
	playDaily(t, m)
	adopt(t, m, withoutMonsters(t, m.game)) // alive after 1000 turns of waiting
	for range 1000 {                        // numbers of four digits
		noArrivals(t, m)
		press(m, ".")
	}
	for _, size := range [][2]int{{120, 30}, {80, 24}, {60, 16}, {40, 12}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		status := ""
		for _, l := range strings.Split(plain(m), "\n") {
			if strings.HasPrefix(l, "HP") {
				status = l
			}
		}
		if !strings.Contains(status, "Daily") {
			t.Errorf("%dx%d: the status line does not say it is the daily:\n%s", size[0], size[1], status)
		}
		if turn := strconv.Itoa(m.game.Turn()); !strings.Contains(status, "T"+turn) && !strings.Contains(status, "Turn: "+turn) {
			t.Errorf("%dx%d: the turn (%s) is cut:\n%s", size[0], size[1], turn, status)
		}
	}
}

// statusOf returns the status line of m's screen.
func statusOf(m *Model) string {
	for _, l := range strings.Split(plain(m), "\n") {
		if strings.HasPrefix(l, "HP") {
			return strings.TrimRight(l, " ")
		}
	}
	return ""
}

// TestTheStatusLineGivesUpLabelsBeforeFigures: at every width from 40 to
// 120 columns the status line keeps HP, depth, turn, every effect with
// its turns left and CHEAT whole; the daily's label shrinks before attack
// and defense go (a tester found that at 80x24 a daily lost Atk/Def to
// its date; at 40x12 "Strong 19" was cut to "S" and CHEAT lost).
func TestTheStatusLineGivesUpLabelsBeforeFigures(t *testing.T) {
	m := goldenModel(t, 80, 24, "enter")
	playDaily(t, m)
	if s := statusOf(m); !strings.Contains(s, "Atk: 5  Def: 2") || !strings.Contains(s, "Daily") {
		t.Errorf("a daily at 80x24 lost attack and defense or its label:\n%s", s)
	}
	// A late game, poisoned and strong, low on HP, with cheats used.
	adopt(t, m, editSave(t, m.game, func(state map[string]any) {
		state["Turn"], state["Cheated"], state["Daily"] = 1226, true, nil
		pl := state["Actors"].([]any)[0].(map[string]any)
		pl["HP"] = 6
		pl["Effects"] = []map[string]any{{"Kind": "poisoned", "TurnsLeft": 16}, {"Kind": "strong", "TurnsLeft": 19}}
	}))
	for w := 120; w >= 40; w-- {
		m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		s := statusOf(m)
		for _, want := range [][2]string{{"HP: 6/30", "HP 6/30"}, {"Depth: 1", " D1 "}, {"Turn: 1226", " T1226 "},
			{"Poisoned 16", " P16 "}, {"Strong 19", " S19 "}, {"CHEAT", " CHEAT"}} {
			if !strings.Contains(s+" ", want[0]) && !strings.Contains(s+" ", want[1]) {
				t.Errorf("%d columns: %q is cut or gone:\n%s", w, want[0], s)
			}
		}
	}
}

// A tester's bug: hasted and poisoned, the status line at 80
// and 100 columns lost attack and defense. The labels shorten first; HP,
// depth, turn and the effects with their turns stay.
func TestTheStatusLineKeepsAttackAndDefenseWithTwoEffects(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {100, 30}} {
		m := goldenModel(t, size[0], size[1], "enter")
		adopt(t, m, editSave(t, m.game, func(state map[string]any) {
			state["Turn"] = 1226
			pl := state["Actors"].([]any)[0].(map[string]any)
			pl["Effects"] = []map[string]any{{"Kind": "hasted", "TurnsLeft": 12}, {"Kind": "poisoned", "TurnsLeft": 3}}
		}))
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		s := statusOf(m)
		for _, want := range [][2]string{{"Atk: 5", "Atk 5"}, {"Def: 2", "Def 2"}, {"HP: 30/30", "HP 30/30"},
			{"Depth: 1", " D1 "}, {"Turn: 1226", " T1226 "}, {"Hasted 12", " H12 "}, {"Poisoned 3", " P3 "}} {
			if !strings.Contains(s+" ", want[0]) && !strings.Contains(s+" ", want[1]) {
				t.Errorf("%dx%d: %q is cut or gone:\n%s", size[0], size[1], want[0], s)
			}
		}
	}
}

// backLobby is mineLobby whose key's other session is playing again.
type backLobby struct{ mineLobby }

func (backLobby) Mine() (LiveGame, bool) {
	return LiveGame{ID: 4, Name: "tester", Activity: Activity{Doing: Playing}, Depth: 1}, true
}

// TestTheChoiceFollowsTheKeysOtherSessionComingBack: back from watching
// its other session until it ended, the choice says so; once the key has
// a new session playing, the server's relist puts that right (a breaker
// read "Your other session has ended" beside a session that played).
func TestTheChoiceFollowsTheKeysOtherSessionComingBack(t *testing.T) {
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Lobby, p.Conflict = mineLobby{}, true
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	cmd := press(m, "w")
	m.Update(cmd()) // the frames channel closed: the session ended
	press(m, "q")
	if s := plain(m); !strings.Contains(s, "has ended") {
		t.Fatalf("back from watching a session that ended:\n%s", s)
	}
	m.p.Lobby = backLobby{}
	m.Update(RelistMsg{})
	if s := plain(m); strings.Contains(s, "has ended") {
		t.Errorf("the key's new session plays, and the choice still says the other has ended:\n%s", s)
	}
}
