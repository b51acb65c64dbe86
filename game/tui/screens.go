package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// This file holds the small screens: help and message-log history (the
// game-over screen is in gameover.go).

// helpScreen lists the keys of the play and aiming key maps, each binding
// on one line (the cheat menu's only for admins); any key returns to the game.
type helpScreen struct{ back screen }

func (h *helpScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) { return h.back, nil }

func (h *helpScreen) view(m *Model) string {
	th := m.th
	var b strings.Builder
	list := func(km keyMap) {
		for _, r := range km {
			if !r.admin || m.admin() {
				b.WriteString(th.heading.Render(fmt.Sprintf("%-16s", r.label)) + th.text.Render(r.help) + "\n")
			}
		}
	}
	b.WriteString(th.title.Render("Keys") + "\n\n")
	list(m.keys.play)
	b.WriteString("\n" + th.title.Render("While aiming (throw, use, look)") + "\n")
	list(m.keys.aim)
	b.WriteString("\n" + th.text.Render("o orc, T troll, % remains, ! potion, ? scroll, > stairs down.") + "\n")
	b.WriteString("\n" + th.dim.Render("Press any key to return."))
	return m.center(b.String())
}

// logScreen shows the whole message log, scrollable.
type logScreen struct {
	back screen
	top  int // index of the first message shown
}

func newLogScreen(m *Model, back screen) *logScreen {
	l := &logScreen{back: back}
	l.top = max(0, m.game.LogLen()-l.rows(m))
	return l
}

func (l *logScreen) rows(m *Model) int { return max(1, m.h-3) }

// firstShown is the first message to show: l.top, kept so that the screen
// is full when it can be.
func (l *logScreen) firstShown(m *Model) int { return max(0, min(l.top, m.game.LogLen()-l.rows(m))) }

// settle keeps the scroll position within the log at the model's size.
func (l *logScreen) settle(m *Model) { l.top = l.firstShown(m) }

func (l *logScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	rows, n := l.rows(m), m.game.LogLen()
	switch k.String() {
	case "esc", "q", "v", "enter":
		return l.back, nil
	case "up", "k":
		l.top--
	case "down", "j":
		l.top++
	case "pgup", "b":
		l.top -= rows
	case "pgdown", "space", "f":
		l.top += rows
	case "home", "g":
		l.top = 0
	case "end", "G":
		l.top = n
	}
	return l, nil
}

func (l *logScreen) view(m *Model) string {
	th := m.th
	rows, n, top := l.rows(m), m.game.LogLen(), l.firstShown(m)
	var b strings.Builder
	b.WriteString(th.title.Render(fmt.Sprintf("Message log (%d-%d of %d)", min(n, top+1), min(n, top+rows), n)) + "\n")
	for i := top; i < n && i < top+rows; i++ {
		msg := m.game.Message(i)
		b.WriteString(th.msgStyle(msg.Kind).Render(truncate(fmt.Sprintf("%5d  %s", msg.Turn, msgText(msg)), m.w)) + "\n")
	}
	for i := n - top; i < rows; i++ {
		b.WriteString("\n")
	}
	b.WriteString("\n" + th.dim.Render(truncate("↑/↓ scroll · PgUp/PgDn page · Home/End · Esc back", m.w)))
	return b.String()
}
