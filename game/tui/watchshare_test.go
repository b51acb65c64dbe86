package tui

import (
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/frame"
)

// fanLobby hands the frames its one player publishes to every watcher, as
// the server's lobby does: each watcher holds the newest only.
type fanLobby struct {
	nopLobby
	mu       sync.Mutex
	watchers []chan *frame.Frame
}

func (l *fanLobby) Watch(uint64) (<-chan *frame.Frame, func(), bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := make(chan *frame.Frame, 1)
	l.watchers = append(l.watchers, ch)
	return ch, func() {}, true
}

func (l *fanLobby) Watchers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.watchers)
}

func (l *fanLobby) Publish(_, _ int, _ string, f *frame.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ch := range l.watchers {
		select {
		case <-ch:
		default:
		}
		ch <- f
	}
}

// TestWatchersOfOneGameDrawOneSharedGame: every watcher of a game draws the
// one game decoded from each frame the player publishes, never a decode of
// its own (2,000 watchers each decoding the whole save every frame held
// the player's key for 68 s: issue 20, case B2).
func TestWatchersOfOneGameDrawOneSharedGame(t *testing.T) {
	l := &fanLobby{}
	p := newPlayer(t, openStore(t), "SHA256:alice", "alice", 5)
	p.Lobby = l
	player := New(p)
	player.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	player.Update(tea.KeyPressMsg{Code: tea.KeyEnter}) // a new game
	var watchers []*Model
	for range 3 {
		w, ok := NewWatcher(l, nil, LiveGame{ID: 1, Name: "alice"})
		if !ok {
			t.Fatal("NewWatcher refused a live game")
		}
		w.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		watchers = append(watchers, w)
	}
	for round := range 2 {
		if round == 0 {
			player.Update(WatchersMsg{}) // they came: the player publishes
		} else {
			press(player, ".") // a turn: the player publishes
		}
		var shared any
		for i, w := range watchers {
			w.Update(w.start()) // the frame arrives
			if s := plain(w); !strings.Contains(s, "Watching alice") {
				t.Fatalf("round %d: watcher %d shows:\n%s", round, i, s)
			}
			g := w.scr.(*watchScreen).g
			if i == 0 {
				shared = g
			} else if any(g) != shared {
				t.Errorf("round %d: watcher %d draws a game of its own (%p), not the one shared (%p)", round, i, g, shared)
			}
			w.start = waitFrame(w.scr.(*watchScreen).frames)
		}
	}
}
