package tui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/frame"
)

// fanLobby hands the frames its one player publishes to every watcher, as
// the server's lobby does: each watcher holds the newest only.
type fanLobby struct {
	nopLobby
	mu        sync.Mutex
	watchers  []chan *frame.Frame
	latest    *frame.Frame // for a new watcher, as the lobby keeps it
	published int          // frames published
}

func (l *fanLobby) Watch(uint64) (<-chan *frame.Frame, func(), bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := make(chan *frame.Frame, 1)
	if l.latest != nil {
		ch <- l.latest
	}
	l.watchers = append(l.watchers, ch)
	return ch, func() {}, true
}

func (l *fanLobby) Watchers() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.watchers)
}

func (l *fanLobby) Publish(_ Activity, _, _ int, _ string, f *frame.Frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.latest = f
	if f != nil {
		l.published++
	}
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
// the player's key for 68 s in a load test).
func TestWatchersOfOneGameDrawOneSharedGame(t *testing.T) {
	l := &fanLobby{}
	p := newPlayer(t, newFakeStore(), "SHA256:alice", "alice", 5)
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

// BenchmarkAFrameFor2000Watchers: one frame the player publishes, drawn by
// 2,000 watchers (each handles the frame and builds its view, as its
// program does): the whole cost of a published frame, per frame. Before
// frames were shared each watcher decoded the save itself.
func BenchmarkAFrameFor2000Watchers(b *testing.B) {
	st := newFakeStore()
	l := &fanLobby{}
	p := newPlayer(b, st, "SHA256:alice", "alice", 5)
	p.Lobby = l
	player := New(p)
	player.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	player.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	watchers := make([]*Model, 2000)
	for i := range watchers {
		w, _ := NewWatcher(l, nil, LiveGame{ID: 1, Name: "alice"})
		w.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		watchers[i] = w
	}
	b.ResetTimer()
	for b.Loop() {
		player.publish() // encodes and publishes a frame, as a turn does
		for _, w := range watchers {
			w.Update(w.start())
			w.View()
			w.start = waitFrame(w.scr.(*watchScreen).frames)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(watchers)), "µs/watcher")
}

// TestWatchersJoiningCostThePlayerOneFrame: each watcher that joins tells
// the player that its watchers changed; the player then shows the new
// count, but publishes a frame only when it had none out: a new watcher
// starts from the frame the lobby holds. Re-publishing for each of 2,000
// joins (an encode, and a redraw by every watcher already there) kept
// the player's next key waiting behind O(n²) work in a load test.
func TestWatchersJoiningCostThePlayerOneFrame(t *testing.T) {
	l := &fanLobby{}
	p := newPlayer(t, newFakeStore(), "SHA256:alice", "alice", 5)
	p.Lobby = l
	player := New(p)
	player.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	player.Update(tea.KeyPressMsg{Code: tea.KeyEnter}) // a new game, watched by none
	for range 200 {
		l.Watch(1)
		player.Update(WatchersMsg{}) // told once per join: the worst a lobby may do
	}
	if l.published != 1 {
		t.Errorf("200 watchers joining made the player publish %d frames, want 1", l.published)
	}
	if s := plain(player); !strings.Contains(s, "200") {
		t.Errorf("the player's screen does not show 200 watchers:\n%s", s)
	}
	turn := player.game.Turn()
	press(player, ".")
	if player.game.Turn() != turn+1 || l.published != 2 {
		t.Errorf("after a key: turn %d (want %d), %d frames published (want 2: one for the turn)", player.game.Turn(), turn+1, l.published)
	}
	for i, ch := range l.watchers {
		select {
		case f := <-ch:
			if f == nil || f != l.latest {
				t.Fatalf("watcher %d holds frame %p, not the newest %p", i, f, l.latest)
			}
		case <-time.After(time.Minute):
			t.Fatalf("watcher %d holds no frame a minute on", i)
		}
	}
}

// TestAWatcherOfAGameThatMovesIsNotIdle: a watcher who presses nothing
// while the player plays on stays (a community tester's spectator got
// "You were idle for 20s" at --idle-timeout 20s); once the game stands
// still, a frame sent again unchanged included, the idle timeout ends the
// watch as before.
func TestAWatcherOfAGameThatMovesIsNotIdle(t *testing.T) {
	l := &fanLobby{}
	p := newPlayer(t, newFakeStore(), "SHA256:alice", "alice", 5)
	p.Lobby = l
	player := New(p)
	player.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	player.Update(tea.KeyPressMsg{Code: tea.KeyEnter}) // a new game

	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	wp := newPlayer(t, newFakeStore(), "SHA256:bob", "bob", 6)
	wp.Lobby, wp.Now, wp.IdleTimeout = l, func() time.Time { return now }, 20*time.Second
	w := New(wp)
	w.Init()
	w.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	scr, _ := startWatching(w, LiveGame{ID: 1, Name: "alice"}, w.scr)
	w.scr = scr
	player.Update(WatchersMsg{}) // the watcher came: the player publishes
	frames := scr.(*watchScreen).frames
	w.Update(waitFrame(frames)())
	for turn := range 4 {
		press(player, ".")
		w.Update(waitFrame(frames)())
		now = now.Add(15 * time.Second)
		if _, cmd := w.Update(IdleCheckMsg{}); cmd != nil || w.Exit() == ExitIdle {
			t.Fatalf("the watcher was dropped as idle after the player's turn %d, %v after its last key", turn+1, 15*time.Second*time.Duration(turn+1))
		}
	}
	player.publish() // the same game again: not a move
	w.Update(waitFrame(frames)())
	now = now.Add(21 * time.Second)
	if _, cmd := w.Update(IdleCheckMsg{}); cmd == nil || w.Exit() != ExitIdle {
		t.Fatal("a watcher of a game standing still for 21s was not idle")
	}
}
