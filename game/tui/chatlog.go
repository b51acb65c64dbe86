package tui

// This file: a game's chat read back, its kept lines (the lobby keeps the
// last 50) scrolled as the message log is: on the message log's Chat side
// (Tab or c) for the player, and on the watch screen (v) for a watcher.

import (
	"fmt"
	"strings"
)

// chatLog is where a reader of the chat's lines is: the first line shown,
// or following the newest.
type chatLog struct {
	top  int  // the index of the first line shown, when not following
	tail bool // following: the newest lines show, and each new one as it comes
}

// newChatLog starts at the newest lines, following.
func newChatLog() *chatLog { return &chatLog{tail: true} }

// chatLogRows is how many lines the chat's view shows at m's size: the
// message log's.
func chatLogRows(m *Model) int { return max(1, m.h-3) }

// first is the index of the first of n lines to show in rows rows.
func (c *chatLog) first(n, rows int) int {
	if c.tail {
		return max(0, n-rows)
	}
	return max(0, min(c.top, n-rows))
}

// scroll moves over n lines shown rows at a time for key, as the message
// log does (↑/↓ k/j, PgUp/PgDn b/f/space, Home/End g/G); scrolled to the
// bottom it follows the newest again. It reports whether key scrolls.
func (c *chatLog) scroll(key string, n, rows int) bool {
	top := c.first(n, rows)
	switch key {
	case "up", "k":
		top--
	case "down", "j":
		top++
	case "pgup", "b":
		top -= rows
	case "pgdown", "space", "f":
		top += rows
	case "home", "g":
		top = 0
	case "end", "G":
		top = n
	default:
		return false
	}
	c.top = max(0, min(top, n-rows))
	c.tail = top >= n-rows
	return true
}

// view draws lines as the message log draws its messages: a title with
// the lines shown, the lines (each inert and cut to the width: chatRow),
// and footer. why, when not "", is shown instead of the lines (the chat is
// off, or there is none).
func (c *chatLog) view(m *Model, lines []ChatLine, why, footer string) string {
	th := m.th
	rows, n := chatLogRows(m), len(lines)
	if why != "" {
		n = 0
	}
	top := c.first(n, rows)
	title := "Chat"
	if n > 0 {
		title = fmt.Sprintf("Chat (%d-%d of %d)", top+1, min(n, top+rows), n)
	}
	var b strings.Builder
	b.WriteString(th.title.Render(truncate(title, m.w)) + "\n")
	shown := 0
	if why != "" {
		b.WriteString(th.dim.Render(truncate(why, m.w)) + "\n")
		shown = 1
	}
	for i := top; i < n && i < top+rows; i++ {
		b.WriteString(m.chatRow(lines[i]) + "\n")
		shown++
	}
	for ; shown < rows; shown++ {
		b.WriteString("\n")
	}
	b.WriteString("\n" + th.dim.Render(truncate(footer, m.w)))
	return b.String()
}

// ownChatWhy is what the message log's Chat side says instead of the
// player's chat lines: that the chat is off (Settings.Chat), or that there
// is none yet; "" when there are lines to show.
func (m *Model) ownChatWhy() string {
	switch {
	case m.set.Chat == ChatOff:
		return "The chat is off in your settings (O, Chat)."
	case len(m.chatLines) > 0:
		return ""
	case m.chat == nil:
		return "There is no chat for this game yet."
	}
	return "No one has said anything yet."
}
