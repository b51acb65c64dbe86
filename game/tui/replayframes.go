package tui

// This file: a replay drawn frame by frame without a terminal or a clock,
// for a recording of it (server/cast's asciinema casts): the same screen
// as the replay player's at a chosen size, one frame per command replayed,
// with nothing of the player's keys (a recording has none).

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/grotto-game/grotto/game/content"
)

// FrameKind says what a replayed frame shows, for its pace.
type FrameKind int

// The kinds of frame ReplayFrames draws.
const (
	FrameStart FrameKind = iota // the game at turn 0, or the account shown instead of a replay
	FrameTurn                   // after one command
	FrameDepth                  // after a command that took the player deeper
	FrameEnd                    // the last: the game's end, checked (or the account, on a mismatch)
)

// ReplayFrame is one screen of a replay drawn by ReplayFrames.
type ReplayFrame struct {
	Kind FrameKind
	// Lines are the screen's rows, exactly the height asked for, each at
	// most the width asked for in cells, coloured with SGR sequences in
	// 256 colours; whatever a player typed (a name) is inert (Inert).
	Lines []string
}

// ReplayFrames plays rg back from turn 0 as the replay player draws it at
// width x height cells (clamped as a terminal is: at least MinWidth x
// MinHeight to draw the game, at most MaxWidth x MaxHeight drawn, in the
// top-left part), and calls frame with each screen: the start, one per
// command, the end. The status line names the speed as speed says it
// ("4×") and no keys. rg.Replay is played to its end. data is the game
// data (nil: content.Default()). It stops at the first error frame
// returns, and returns it.
func ReplayFrames(rg ReplayGame, data *content.Tables, width, height int, speed string, frame func(ReplayFrame) error) error {
	m := NewReplayer(rg, data)
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	r := m.scr.(*replayScreen)
	r.recorded = speed
	m.recording = true
	draw := func(k FrameKind) error {
		return frame(ReplayFrame{Kind: k, Lines: frameLines(m, width, height)})
	}
	if err := draw(FrameStart); err != nil {
		return err
	}
	for !r.over() {
		depth := m.game.Depth()
		err := r.step(m)
		m.settle()
		k := FrameTurn
		switch {
		case err != nil || r.over():
			k = FrameEnd
		case m.game.Depth() > depth:
			k = FrameDepth
		}
		if err := draw(k); err != nil {
			return err
		}
	}
	return nil
}

// frameLines is m's screen as height rows of at most width cells, in 256
// colours.
func frameLines(m *Model, width, height int) []string {
	var b strings.Builder
	w := colorprofile.Writer{Forward: &b, Profile: colorprofile.ANSI256}
	w.WriteString(m.View().Content)
	lines := strings.Split(b.String(), "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = truncate(strings.TrimSuffix(l, "\r"), width)
	}
	return lines
}
