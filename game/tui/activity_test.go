package tui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/frame"
)

// activityLobby records what the session publishes, and lists games.
type activityLobby struct {
	nopLobby
	games     []LiveGame
	published []Activity
}

func (l *activityLobby) Games() []LiveGame { return l.games }
func (l *activityLobby) Publish(a Activity, _, _ int, _ string, _ *frame.Frame) {
	l.published = append(l.published, a)
}
func (l *activityLobby) Watch(uint64) (<-chan *frame.Frame, func(), bool) {
	return make(chan *frame.Frame), func() {}, true
}

// last returns what the session published last.
func (l *activityLobby) last(t *testing.T) Activity {
	t.Helper()
	if len(l.published) == 0 {
		t.Fatal("the session published nothing")
	}
	return l.published[len(l.published)-1]
}

// TestAPlayerWhoDiedIsPublishedAsGameOverNotAsPlaying: a player sitting on
// the death screen has no game in play; lists must not show its depth and
// turn as a game to watch (a community tester).
func TestAPlayerWhoDiedIsPublishedAsGameOverNotAsPlaying(t *testing.T) {
	lobby := &activityLobby{}
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 248) // dies (gameover_test.go)
	p.Lobby = lobby
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	if a := lobby.last(t); a.Doing != OnTitle {
		t.Errorf("on the title the session published %+v", a)
	}
	press(m, "enter")
	if a := lobby.last(t); a.Doing != Playing {
		t.Errorf("in a game the session published %+v, want playing", a)
	}
	dive(t, m)
	if m.game.Won() {
		t.Fatal("seed 248 escaped; pick a seed that dies")
	}
	if a := lobby.last(t); a.Doing != GameOver {
		t.Errorf("on the death screen the session published %+v, want game over", a)
	}
	line := gameLine(LiveGame{Name: "tester", Activity: lobby.last(t), Depth: m.game.Depth(), Turn: m.game.Turn()}, testNow)
	if !strings.Contains(line, "game over") || strings.Contains(line, " "+strconv.Itoa(m.game.Turn())) {
		t.Errorf("the list shows a dead player as %q", line)
	}
}

// TestWatchingIsPublishedWithTheWatchedName: a session that watches
// someone is listed as watching them, not as on the title (a community
// tester), and as on the title again once it stops.
func TestWatchingIsPublishedWithTheWatchedName(t *testing.T) {
	lobby := &activityLobby{games: []LiveGame{{ID: 7, Name: "bob", Activity: Activity{Doing: Playing}, Depth: 2, Turn: 40}}}
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Lobby = lobby
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "w")
	press(m, "enter")
	if _, ok := m.scr.(*watchScreen); !ok {
		t.Fatalf("Enter on the watch list: %T\n%s", m.scr, plain(m))
	}
	if a := lobby.last(t); a != (Activity{Doing: Watching, Watched: "bob"}) {
		t.Errorf("watching bob, the session published %+v", a)
	}
	press(m, "q")
	if a := lobby.last(t); a.Doing != OnTitle {
		t.Errorf("back on the title, the session published %+v", a)
	}
}

// TestEveryListSaysWhatASessionDoes: the title's list (gameLine) and
// `who` (Columns, Activity.Text) show depth and turn only for a game in
// play, and otherwise what the session does, with the watched name inert.
func TestEveryListSaysWhatASessionDoes(t *testing.T) {
	now := testNow
	for _, c := range []struct {
		name  string
		a     Activity
		want  string
		depth string
	}{
		{"a player in a game shows depth and turn", Activity{Doing: Playing}, "3    812", "3"},
		{"a session with no game is on the title", Activity{}, "on the title", "-"},
		{"a dead player's game is over", Activity{Doing: GameOver}, "game over", "-"},
		{"a winner has won", Activity{Doing: Won}, "won", "-"},
		{"a watcher watches someone", Activity{Doing: Watching, Watched: "bob"}, "watching bob", "-"},
		{"a watcher of a new player", Activity{Doing: Watching}, "watching a new player", "-"},
		{"a watched name is inert", Activity{Doing: Watching, Watched: "b\x1b[2Job"}, "watching b", "-"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := LiveGame{Name: "ann", Activity: c.a, Depth: 3, Turn: 812, LastInput: now.Add(-time.Second)}
			line := gameLine(g, now)
			if !strings.Contains(line, c.want) || strings.ContainsRune(line, 0x1b) {
				t.Errorf("gameLine = %q, want it to hold %q", line, c.want)
			}
			if _, depth, _, _ := g.Columns(now); depth != c.depth {
				t.Errorf("Columns' depth = %q, want %q", depth, c.depth)
			}
			if strings.ContainsRune(c.a.Text(), 0x1b) {
				t.Errorf("Text() = %q carries an escape byte", c.a.Text())
			}
		})
	}
}

// otherLobby is the lobby of a second session of a key whose other
// session does other.
type otherLobby struct {
	nopLobby
	other LiveGame
}

func (l otherLobby) Mine() (LiveGame, bool) { return l.other, true }

// TestTheChoiceSaysWhatTheKeysOtherSessionDoes: a take-over is offered as
// one of a game only when the other session has one open; one on the
// title or watching someone loses nothing, and the screen says so.
func TestTheChoiceSaysWhatTheKeysOtherSessionDoes(t *testing.T) {
	for _, c := range []struct {
		name      string
		a         Activity
		want, not []string
	}{
		{"a game in play is taken over", Activity{Doing: Playing},
			[]string{"already playing", "has a game open", "take over"}, []string{"nothing is lost"}},
		{"a session watching someone has no game to take over", Activity{Doing: Watching, Watched: "bob"},
			[]string{"already connected", "it is watching bob", "nothing is lost"}, []string{"take over", "already playing"}},
		{"a session on the title has no game to take over", Activity{},
			[]string{"already connected", "it is on the title", "nothing is lost"}, []string{"take over", "already playing"}},
		{"a game that ended is not taken over as if in play", Activity{Doing: GameOver},
			[]string{"already connected", "has ended", "see how the game ended"}, []string{"take over", "has a game open", "already playing"}},
		{"a game that was won is not said to be playing", Activity{Doing: Won},
			[]string{"already connected", "has ended"}, []string{"take over", "already playing"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
			p.Lobby, p.Conflict = otherLobby{other: LiveGame{ID: 3, Name: "tester", Activity: c.a}}, true
			m := New(p)
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			s := strings.Join(strings.Fields(plain(m)), " ")
			for _, w := range c.want {
				if !strings.Contains(s, w) {
					t.Errorf("the choice does not say %q:\n%s", w, plain(m))
				}
			}
			for _, w := range c.not {
				if strings.Contains(s, w) {
					t.Errorf("the choice says %q:\n%s", w, plain(m))
				}
			}
		})
	}
}

// TestAWatcherIsListedByWhatItWatchesNow: once the watched game ends the
// session is no longer listed as watching it, and after an admin renames
// the watched player the screen and the list name the player as it is
// named now (a breaker: "watching bob" stayed after bob left, and named
// a renamed player by a name another key then claimed).
func TestAWatcherIsListedByWhatItWatchesNow(t *testing.T) {
	lobby := &activityLobby{games: []LiveGame{{ID: 7, Name: "bob", Activity: Activity{Doing: Playing}, Depth: 2, Turn: 40}}}
	p := newPlayer(t, newFakeStore(), "SHA256:test", "tester", 1)
	p.Lobby = lobby
	m := New(p)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	press(m, "w")
	press(m, "enter")
	lobby.games[0].Name = "robert" // renamed by an admin
	m.Update(RelistMsg{})
	if a := lobby.last(t); a != (Activity{Doing: Watching, Watched: "robert"}) {
		t.Errorf("after the rename the session published %+v, want watching robert", a)
	}
	if s := plain(m); !strings.Contains(s, "of robert") {
		t.Errorf("after the rename the watch screen reads:\n%s", s)
	}
	m.Update(watchEnded{})
	if a := lobby.last(t); a.Doing != OnTitle {
		t.Errorf("once the watched game ended the session published %+v, want no longer watching", a)
	}
}
