package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// FuzzKeys feeds any sequence of keys, sizes and mouse events to a session:
// it must never panic, and every frame it draws must fit the terminal.
func FuzzKeys(f *testing.F) {
	f.Add([]byte("\rn.jjjkkkiagqadt\r/\x1bv?\\S"), uint8(80), uint8(24))
	f.Add([]byte("\rnggggiiiia\x1b[A\r"), uint8(40), uint8(12))
	f.Add([]byte{13, 'n', 0, 255, 127, 27}, uint8(0), uint8(0))
	st := func(t *testing.T) *Model {
		p := newPlayer(t, newFakeStore(), "SHA256:fuzz", "fuzz", 11)
		p.Admin = func() bool { return true }
		return New(p)
	}
	f.Fuzz(func(t *testing.T, keys []byte, w, h uint8) {
		m := st(t)
		m.Update(tea.WindowSizeMsg{Width: int(w), Height: int(h)})
		for i, b := range keys {
			var msg tea.Msg
			switch {
			case b == 13:
				msg = tea.KeyPressMsg{Code: tea.KeyEnter}
			case b == 27:
				msg = tea.KeyPressMsg{Code: tea.KeyEscape}
			case b >= 0xf0:
				msg = tea.MouseClickMsg{X: int(keys[(i+1)%len(keys)]), Y: int(b & 0x0f), Button: tea.MouseLeft}
			case b >= 0xe0:
				msg = tea.KeyPressMsg{Code: tea.KeyUp + rune(b&0x0f), Mod: tea.KeyMod(b >> 5)}
			case b < 32:
				msg = tea.KeyPressMsg{Code: rune('a' + b%26), Mod: tea.ModCtrl}
			default:
				msg = tea.KeyPressMsg{Code: rune(b), Text: string(rune(b))}
			}
			m.Update(msg)
			v := m.View().Content
			if int(w) >= MinWidth && int(h) >= MinHeight {
				if lines := strings.Count(v, "\n") + 1; lines > int(h) {
					t.Fatalf("a %dx%d terminal got a %d-line frame after key %d:\n%s", w, h, lines, i, v)
				}
			}
		}
	})
}
