package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// playScreen is the map, the status line and the latest messages.
type playScreen struct {
	cam  camera
	note string // a grey line: why the last command did not happen
	occ  []int  // per map tile: index into the frame's actors, or -1; reused
}

func newPlay() *playScreen { return &playScreen{} }

// directions maps movement keys to steps: arrows, vi-keys (hjklyubn) and the
// number pad (digits, or keypad keys where the terminal reports them).
func direction(key string) (dx, dy int, ok bool) {
	switch key {
	case "up", "k", "8", "kp8", "kpup":
		return 0, -1, true
	case "down", "j", "2", "kp2", "kpdown":
		return 0, 1, true
	case "left", "h", "4", "kp4", "kpleft":
		return -1, 0, true
	case "right", "l", "6", "kp6", "kpright":
		return 1, 0, true
	case "y", "7", "kp7", "home", "kphome":
		return -1, -1, true
	case "u", "9", "kp9", "pgup", "kppgup":
		return 1, -1, true
	case "b", "1", "kp1", "end", "kpend":
		return -1, 1, true
	case "n", "3", "kp3", "pgdown", "kppgdown":
		return 1, 1, true
	}
	return 0, 0, false
}

func (s *playScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	key := k.String()
	var cmd game.Command
	if dx, dy, ok := direction(key); ok {
		cmd = game.Move(dx, dy)
	} else {
		switch key {
		case ".", "5", "kp5", "kpbegin", "begin", "space":
			cmd = game.Wait()
		case ">":
			cmd = game.Descend()
		case "?":
			return &helpScreen{back: s}, nil
		case "v":
			return newLogScreen(m, s), nil
		case "S":
			return s, m.saveAndLeave()
		default:
			s.note = fmt.Sprintf("Unknown command %q. Press ? for help.", key)
			return s, nil
		}
	}
	res, err := m.game.Apply(cmd)
	var imp *game.Impossible
	switch {
	case errors.As(err, &imp):
		s.note = imp.Msg
		return s, nil
	case err != nil:
		s.note = err.Error()
		return s, nil
	}
	s.note = ""
	m.saved = false
	if res.Died {
		rank, err := m.finish()
		return &gameOverScreen{rank: rank, err: err}, nil
	}
	if res.Descended {
		s.cam = camera{} // a new level: place the camera afresh
		if err := m.Persist(); err != nil {
			s.note = "Could not save: " + err.Error()
		}
	}
	return s, nil
}

// layout returns the rows given to the map and to messages at the model's size.
func (m *Model) layout() (mapRows, msgRows int) {
	msgRows = 5
	if m.h < 24 {
		msgRows = 3
	}
	return m.h - 1 - msgRows, msgRows
}

func (s *playScreen) view(m *Model) string {
	g := m.game
	mapRows, msgRows := m.layout()
	var b strings.Builder
	b.Grow(m.w * m.h * 4)
	s.drawMap(m, &b, mapRows)
	b.WriteString(m.statusLine())
	b.WriteByte('\n')
	s.drawMessages(m, &b, g, msgRows)
	return b.String()
}

// drawMap writes mapRows lines of the map as seen through the camera: visible
// tiles lit, explored ones dim, the rest blank, actors on visible tiles.
func (s *playScreen) drawMap(m *Model, b *strings.Builder, mapRows int) {
	g := m.game
	mw, mh := g.Size()
	player := g.Player()
	s.cam.follow(player.Pos, m.w, mapRows, mw, mh)
	actors := g.Actors()
	if len(s.occ) != mw*mh {
		s.occ = make([]int, mw*mh)
		for i := range s.occ {
			s.occ[i] = -1
		}
	}
	// Corpses first, so that a living actor on the same tile wins.
	for pass := range 2 {
		for i, a := range actors {
			if (pass == 0) == a.Corpse && g.Visible(a.Pos) {
				s.occ[a.Pos.Y*mw+a.Pos.X] = i
			}
		}
	}
	th := m.th
	cur := csNone
	for row := range mapRows {
		for col := range m.w {
			p := world.Pos{X: s.cam.x + col, Y: s.cam.y + row}
			st, ch := csNone, ' '
			if p.X >= 0 && p.Y >= 0 && p.X < mw && p.Y < mh {
				st, ch = s.cell(g, p, actors)
			}
			if st != cur && ch != ' ' {
				if cur != csNone {
					b.WriteString("\x1b[m")
				}
				b.WriteString(th.sgr[st])
				cur = st
			}
			b.WriteRune(ch)
		}
		if cur != csNone {
			b.WriteString("\x1b[m")
			cur = csNone
		}
		b.WriteByte('\n')
	}
	for _, a := range actors {
		s.occ[a.Pos.Y*mw+a.Pos.X] = -1
	}
}

// cell returns the look of map tile p.
func (s *playScreen) cell(g *game.Game, p world.Pos, actors []game.Actor) (cellStyle, rune) {
	mw, _ := g.Size()
	if i := s.occ[p.Y*mw+p.X]; i >= 0 {
		return actorStyle(actors[i]), actors[i].Glyph
	}
	visible := g.Visible(p)
	if !visible && !g.Explored(p) {
		return csNone, ' '
	}
	switch g.Tile(p) {
	case world.Floor:
		if visible {
			return csFloorLit, '.'
		}
		return csFloorDim, '.'
	case world.DownStairs:
		if visible {
			return csStairsLit, '>'
		}
		return csStairsDim, '>'
	}
	if visible {
		return csWallLit, '#'
	}
	return csWallDim, '#'
}

// statusLine is "HP: cur/max  Depth: n  Turn: n  Kills: n" and a help hint,
// shortened on narrow terminals so that numbers are never cut.
func (m *Model) statusLine() string {
	g := m.game
	p := g.Player()
	hp := m.th.hpGood
	if p.HP*3 <= p.MaxHP {
		hp = m.th.hpLow
	}
	left := fmt.Sprintf("HP: %d/%d", p.HP, p.MaxHP)
	rest := fmt.Sprintf("  Depth: %d  Turn: %d  Kills: %d", g.Depth(), g.Turn(), g.Kills())
	if len(left)+len(rest) > m.w {
		left = fmt.Sprintf("HP %d/%d", p.HP, p.MaxHP)
		rest = fmt.Sprintf(" D%d T%d K%d", g.Depth(), g.Turn(), g.Kills())
	}
	hint := "? help"
	if pad := m.w - len(left) - len(rest) - len(hint); pad >= 1 {
		return hp.Render(left) + m.th.status.Render(rest+strings.Repeat(" ", pad)) + m.th.dim.Render(hint)
	}
	return hp.Render(left) + m.th.status.Render(fit(rest, m.w-len(left)))
}

// drawMessages writes the newest rows messages, oldest first, and the note.
func (s *playScreen) drawMessages(m *Model, b *strings.Builder, g *game.Game, rows int) {
	lines := make([]string, 0, rows)
	if s.note != "" {
		lines = append(lines, m.th.impossible.Render(truncate(s.note, m.w)))
	}
	n := g.LogLen()
	for i := n - 1; i >= 0 && len(lines) < rows; i-- {
		msg := g.Message(i)
		lines = append(lines, m.th.msgStyle(msg.Kind).Render(truncate(msgText(msg), m.w)))
	}
	for i := len(lines) - 1; i >= 0; i-- {
		b.WriteString(lines[i])
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	for range rows - len(lines) {
		b.WriteByte('\n')
	}
}

// msgText is a message with its repeat count, e.g. "The orc attacks you. (x3)".
func msgText(msg game.Message) string {
	if msg.Count > 1 {
		return fmt.Sprintf("%s (x%d)", msg.Text, msg.Count)
	}
	return msg.Text
}
