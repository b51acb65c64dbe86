package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
)

// screenState prints everything a screen holds (and the play screen under
// it), so that any change a view makes to it shows.
func screenState(m *Model) string {
	switch s := m.scr.(type) {
	case *playScreen:
		return fmt.Sprintf("%+v", *s)
	case *targetScreen:
		return fmt.Sprintf("%+v %+v", *s, *s.back)
	case *inventoryScreen:
		return fmt.Sprintf("%+v %+v", *s, *s.back)
	case *logScreen:
		return fmt.Sprintf("%+v", *s)
	case *watchScreen:
		return fmt.Sprintf("%+v %+v", *s, *s.board)
	}
	return fmt.Sprintf("%T", m.scr)
}

// fullPack is a full inventory, each kind after another.
func fullPack() []game.ItemKind {
	var pack []game.ItemKind
	for i := range game.InventorySize {
		pack = append(pack, game.ItemKinds()[i%len(game.ItemKinds())])
	}
	return pack
}

func TestViewsOnlyDraw(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, m *Model)
	}{
		{"play", func(t *testing.T, m *Model) {}},
		{"play after a resize", func(t *testing.T, m *Model) {
			m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
		}},
		{"aiming a fireball", func(t *testing.T, m *Model) {
			walkTo(t, m, game.FireballScroll)
			for _, k := range []string{"g", "i", "a", "l", "L"} {
				press(m, k)
			}
		}},
		{"a scrolled pack after a resize", func(t *testing.T, m *Model) {
			adopt(t, m, withPack(t, m.game, fullPack()))
			m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
			press(m, "i")
			for range 10 { // past the end: Update keeps the list full
				m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
			}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 30})
		}},
		{"the message log after a resize", func(t *testing.T, m *Model) {
			adopt(t, m, withPack(t, m.game, fullPack()))
			for i := range 20 { // a message each: twenty stacks in turn (pack letters stay), so that no two in a row fold
				press(m, "d")
				press(m, string(rune('a'+i)))
			}
			if m.game.LogLen() < 20 {
				t.Fatalf("%d messages, want 20", m.game.LogLen())
			}
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 12})
			press(m, "v")
			m.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		}},
		{"watching another game", func(t *testing.T, m *Model) {
			other := game.New(99, content.Default())
			blob, err := other.Encode()
			if err != nil {
				t.Fatal(err)
			}
			frames := make(chan *frame.Frame, 1)
			frames <- frame.New(blob, nil)
			m.scr = &watchScreen{back: m.scr, name: "bob", frames: frames, stop: func() {}, board: newPlay()}
			m.Update(frameMsg{<-frames})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(t, newFakeStore(), fireballSeed)
			press(m, "enter")
			c.setup(t, m)
			own, before := m.game, screenState(m)
			first := m.View().Content
			if after := screenState(m); after != before || m.game != own {
				t.Errorf("View changed the screen:\nbefore %s\nafter  %s\n(game swapped: %v)", before, after, m.game != own)
			}
			if second := m.View().Content; second != first {
				t.Errorf("two views with no Update between differ:\n%s\n---\n%s", first, second)
			}
		})
	}
}

func TestLookingAroundClearsTheLastNote(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	press(m, "Z")
	press(m, "/")
	press(m, "esc")
	if s := plain(m); strings.Contains(s, "Unknown command") {
		t.Errorf("the note from before looking around came back:\n%s", s)
	}
}
