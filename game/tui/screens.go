package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// This file holds the message-log history screen (help is in help.go, the
// game-over screen in gameover.go).

// logScreen shows the whole message log, scrollable, and on its other
// side (Tab or c) the game's chat, its kept lines (chatlog.go).
type logScreen struct {
	back screen
	top  int      // index of the first message shown
	chat *chatLog // the chat's side, when shown; nil for the messages
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
	case "tab", "c":
		if l.chat == nil {
			l.chat = newChatLog()
		} else {
			l.chat = nil
		}
		return l, nil
	}
	if l.chat != nil {
		l.chat.scrollLines(m, k.String(), m.chatLines)
		return l, nil
	}
	switch k.String() {
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
	if l.chat != nil {
		return l.chat.view(m, m.chatLines, m.ownChatWhy(), "Tab messages · ↑/↓ scroll · PgUp/PgDn page · Home/End · Esc back")
	}
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
	b.WriteString("\n" + th.dim.Render(truncate("Tab chat · ↑/↓ scroll · PgUp/PgDn page · Home/End · Esc back", m.w)))
	return b.String()
}
