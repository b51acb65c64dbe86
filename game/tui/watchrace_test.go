package tui

import (
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
)

// oneFrame is a lobby whose one game has published f and nothing since.
type oneFrame struct {
	nopLobby
	f *frame.Frame
}

func (l oneFrame) Watch(uint64) (<-chan *frame.Frame, func(), bool) {
	ch := make(chan *frame.Frame, 1)
	ch <- l.f
	return ch, func() {}, true
}

// TestASharedGameDrawsFromManyGoroutines: watchers draw the game of a
// frame they share, each from its own program's goroutine, at once; the
// accessors the UI draws from must change nothing (run with -race: a
// cache filled on first use, or a camera kept in the game, shows up as a
// race). Sizes differ so that each watcher's camera and layout do.
func TestASharedGameDrawsFromManyGoroutines(t *testing.T) {
	g := game.New(11, content.Default())
	for range 40 { // walk about so that the map, the log and memory hold something
		for _, c := range []game.Command{game.Move(1, 0), game.Move(0, 1), game.Move(-1, 0), game.Wait()} {
			g.Apply(c)
		}
	}
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	f := frame.New(blob, nil)
	sizes := [][2]int{{80, 24}, {120, 40}, {60, 20}, {200, 60}, {40, 12}, {100, 30}, {81, 25}, {150, 50}}
	var wg sync.WaitGroup
	for _, size := range sizes {
		wg.Go(func() {
			w, ok := NewWatcher(oneFrame{f: f}, nil, LiveGame{ID: 1, Name: "alice"})
			if !ok {
				t.Error("NewWatcher refused a live game")
				return
			}
			w.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			w.Update(w.start())
			for range 20 {
				w.View()
				w.Update(tea.WindowSizeMsg{Width: size[0] + 1, Height: size[1]})
				w.View()
				w.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			}
		})
	}
	wg.Wait()
	again, err := f.Game()
	if err != nil {
		t.Fatal(err)
	}
	after, err := again.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(blob) {
		t.Error("drawing the shared game changed it: its save differs from the published one")
	}
}
