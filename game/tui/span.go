package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// span is a style of colours and attributes only (no width, padding,
// margin or border) kept as the SGR sequences lipgloss writes around one
// line of text, so that a line is styled by joining strings instead of
// lipgloss measuring and re-rendering it. The status line and the message
// log are drawn in every frame: through lipgloss they were 4% of a key's
// CPU at 300 players (docs/performance.md, "Frames on demand").
type span struct {
	open, close string
}

// spanSentinel is the text a style renders to find its sequences: a
// printable byte that no SGR sequence contains.
const spanSentinel = "x"

// spanOf returns s as a span. s must style colours and attributes only.
func spanOf(s lipgloss.Style) span {
	r := s.Render(spanSentinel)
	i := strings.Index(r, spanSentinel)
	return span{open: r[:i], close: r[i+len(spanSentinel):]}
}

// render styles one line of text as lipgloss would: text holds no newline,
// tab or escape sequence (spanOf's test checks the two agree on such text).
func (s span) render(text string) string { return s.open + text + s.close }
