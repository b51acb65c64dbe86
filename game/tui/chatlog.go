package tui

// This file: a game's chat read back, its kept lines (the lobby keeps the
// last 50) scrolled as the message log is: on the message log's Chat side
// (Tab or c) for the player, and on the watch screen (v) for a watcher.

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
)

// chatLog is where a reader of the chat's lines is: the first row shown,
// or following the newest. It counts rows, not lines: a long line (up to
// ChatMaxRunes) wraps over several rows (chatLogWrap), so that it is read
// whole at any width (a community tester never could over SSH at 80
// columns).
type chatLog struct {
	top  int  // the index of the first row shown, when not following
	tail bool // following: the newest rows show, and each new one as it comes
}

// newChatLog starts at the newest lines, following.
func newChatLog() *chatLog { return &chatLog{tail: true} }

// chatLogRows is how many rows the chat's view shows at m's size: the
// message log's.
func chatLogRows(m *Model) int { return max(1, m.h-3) }

// chatIndent starts each continuation row of a wrapped chat line.
const chatIndent = "  "

// chatLogWrap is lines as the read-back shows them at m's width: each
// line's rows ("‹name› text" wrapped between words, its continuation rows
// indented by chatIndent), drawn, and for each row the index of its line.
func (m *Model) chatLogWrap(lines []ChatLine) (rows []string, of []int) {
	width := max(1, m.w-len(chatIndent))
	for i, l := range lines {
		wrapped := strings.Split(ansi.Wrap(chatWho(l)+Inert(l.Text), width, " "), "\n")
		for j, row := range wrapped {
			if j > 0 {
				row = chatIndent + strings.TrimLeft(row, " ")
			}
			rows = append(rows, m.th.msgSpan(game.MsgWelcome).render(truncate(row, m.w)))
			of = append(of, i)
		}
	}
	return rows, of
}

// first is the index of the first of n rows to show, rows at a time.
func (c *chatLog) first(n, rows int) int {
	if c.tail {
		return max(0, n-rows)
	}
	return max(0, min(c.top, n-rows))
}

// scroll moves over n rows shown rows at a time for key, as the message
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

// scrollLines is scroll over lines as m's read-back wraps them.
func (c *chatLog) scrollLines(m *Model, key string, lines []ChatLine) bool {
	rows, _ := m.chatLogWrap(lines)
	return c.scroll(key, len(rows), chatLogRows(m))
}

// view draws lines as the message log draws its messages: a title with
// the lines shown (of the rows shown, the first's line to the last's), the
// lines wrapped (each inert: chatLogWrap), and footer. why, when not "",
// is shown instead of the lines (the chat is off, or there is none).
func (c *chatLog) view(m *Model, lines []ChatLine, why, footer string) string {
	th := m.th
	if why != "" {
		lines = nil
	}
	wrapped, of := m.chatLogWrap(lines)
	rows, n := chatLogRows(m), len(wrapped)
	top := c.first(n, rows)
	title := "Chat"
	if n > 0 {
		title = fmt.Sprintf("Chat (%d-%d of %d)", of[top]+1, of[min(n, top+rows)-1]+1, len(lines))
	}
	var b strings.Builder
	b.WriteString(th.title.Render(truncate(title, m.w)) + "\n")
	shown := 0
	if why != "" {
		b.WriteString(th.dim.Render(truncate(why, m.w)) + "\n")
		shown = 1
	}
	for i := top; i < n && i < top+rows; i++ {
		b.WriteString(wrapped[i] + "\n")
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
