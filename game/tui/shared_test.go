package tui

import (
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// Every session's model reads the one sharedChrome and boundKeys. Sessions
// play and draw at once, each in its own goroutine: under -race (the
// README's test command) a write to either, by any drawing or key path
// these models take, fails this test.
func TestSessionsShareTheirChromeAndKeysWithoutRacing(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 4 {
		m := New(newPlayer(t, newFakeStore(), "SHA256:shared", "shared", uint64(3+i)))
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
		if m.th.chrome != sharedChrome {
			t.Fatal("a model has a chrome of its own")
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, k := range []string{"n", "j", "l", "?", "esc", "v", "esc", "O", "esc", "k", "h", ".", "x"} {
				press(m, k)
				_ = m.View()
			}
		}()
	}
	wg.Wait()
}
