package tui

// This file: what the host does to a session from outside it: a broadcast
// shown as a banner over the top of every screen until a key dismisses it
// (that key is consumed, never played), and the end of a session by an
// admin (kick) or a ban.

import (
	"strings"
)

// BannerMsg is a host's broadcast: the model shows Text over the top lines
// of whatever screen is up until the player presses a key, which only
// dismisses it. A newer banner replaces the one shown.
type BannerMsg struct{ Text string }

// KickedMsg tells a session that an admin ended it: the model saves the
// game and quits with ExitKicked.
type KickedMsg struct{}

// BannedMsg tells a session that its key was banned: the model saves the
// game and quits with ExitBanned.
type BannedMsg struct{}

// bannerPrefix and bannerSuffix frame a host's text, so a player can tell
// it from the game's own lines.
const (
	bannerPrefix = "Message from the host: "
	bannerSuffix = "  (press a key)"
)

// withBanner draws the banner, wrapped to the screen's width, over the top
// lines of screen s (at most all but the last line).
func (m *Model) withBanner(s string) string {
	if m.banner == "" {
		return s
	}
	text := bannerPrefix + Inert(m.banner) + bannerSuffix
	block := m.th.selected.Width(max(1, m.w)).Render(text)
	top := strings.Split(block, "\n")
	lines := strings.Split(s, "\n")
	n := min(len(top), max(1, len(lines)-1))
	copy(lines, top[:n])
	return strings.Join(lines, "\n")
}
