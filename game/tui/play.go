package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// playScreen is the map, the status line and the latest messages.
type playScreen struct {
	cam  camera
	note string  // a grey line: why the last command did not happen
	occ  []int16 // per map tile: index into marks, or -1; reused between frames
}

// overlay is what a targeting screen draws over the map: the cursor and the
// tiles an area effect would hit.
type overlay struct {
	cursor     world.Pos
	area       []world.Pos
	holdCamera bool // the cursor follows the mouse: keep the map still under it
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
		case "\\":
			if !m.admin() {
				s.note = "Unknown command."
				return s, nil
			}
			return &cheatScreen{back: s}, nil
		case "<":
			if m.game.Tile(m.game.Player().Pos) == world.UpStairs {
				s.note = "Rubble blocks the way back up. The only way out is down."
			} else {
				s.note = "There are no stairs up here."
			}
			return s, nil
		case "g", ",":
			cmd = game.PickUp()
		case "i":
			return newInventory(s, verbUse), nil
		case "q":
			return newInventory(s, verbQuaff), nil
		case "d":
			return newInventory(s, verbDrop), nil
		case "t":
			return newInventory(s, verbThrow), nil
		case "/", ";":
			return newTargeting(m, s, targetLook, 0, "Look around.", nil), nil
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
	return s.apply(m, cmd)
}

// apply sends cmd to the game and shows what came of it: a grey note when it
// was impossible, the game-over screen on death, a save on a new depth.
func (s *playScreen) apply(m *Model, cmd game.Command) (screen, tea.Cmd) {
	res, err := m.p.Play.Do(cmd)
	var imp *game.Impossible
	if errors.As(err, &imp) {
		s.note = imp.Msg
		return s, nil
	}
	s.note = ""
	defer m.publish()
	switch {
	case res.Died || res.Won: // the end is recorded for good, in one transaction
		return &gameOverScreen{rank: m.p.Play.Rank(), err: err}, nil
	case res.Descended:
		s.cam = camera{}
	}
	if err != nil {
		s.note = err.Error() // the turn happened but is not durable
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

func (s *playScreen) view(m *Model) string { return s.render(m, nil) }

// render draws the play screen, with a targeting overlay when ov is not nil.
func (s *playScreen) render(m *Model, ov *overlay) string {
	g := m.game
	mapRows, msgRows := m.layout()
	var b strings.Builder
	b.Grow(m.w * m.h * 4)
	s.drawMap(m, &b, mapRows, ov)
	b.WriteString(m.statusLine())
	b.WriteByte('\n')
	s.drawMessages(m, &b, g, msgRows)
	return b.String()
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
	if name := g.LevelName(); name != "" && m.w >= 100 {
		rest = fmt.Sprintf("  Depth: %d (%s)  Turn: %d  Kills: %d", g.Depth(), name, g.Turn(), g.Kills())
	}
	for _, e := range p.Effects {
		rest += fmt.Sprintf("  %s %d", effectLabel(e.Kind), e.TurnsLeft)
	}
	if g.Cheated() {
		rest += "  CHEAT"
	}
	if m.p.Play.Behind() {
		rest += "  NOT SAVED"
	}
	if m.watchers > 0 {
		rest += fmt.Sprintf("  watched by %d", m.watchers)
	}
	if len(left)+len(rest) > m.w {
		left = fmt.Sprintf("HP %d/%d", p.HP, p.MaxHP)
		rest = fmt.Sprintf(" D%d T%d K%d", g.Depth(), g.Turn(), g.Kills())
		for _, e := range p.Effects {
			rest += fmt.Sprintf(" %c%d", effectLabel(e.Kind)[0], e.TurnsLeft)
		}
		if g.Cheated() {
			rest += " CHEAT"
		}
		if m.p.Play.Behind() {
			rest += " UNSAVED"
		}
		if m.watchers > 0 {
			rest += fmt.Sprintf(" W%d", m.watchers)
		}
	}
	hint := "? help"
	if pad := m.w - len(left) - len(rest) - len(hint); pad >= 1 {
		return hp.Render(left) + m.th.status.Render(rest+strings.Repeat(" ", pad)) + m.th.dim.Render(hint)
	}
	return hp.Render(left) + m.th.status.Render(fit(rest, m.w-len(left)))
}

// drawMessages writes the newest rows messages, oldest first, and the note.
func (s *playScreen) drawMessages(m *Model, b *strings.Builder, g *game.Game, rows int) {
	// Collect newest first, each message word-wrapped to the width, then
	// write the last rows lines oldest first.
	lines := make([]string, 0, rows)
	add := func(text string, st lipgloss.Style) {
		wrapped := strings.Split(ansi.Wordwrap(text, m.w, ""), "\n")
		for i := len(wrapped) - 1; i >= 0 && len(lines) < rows; i-- {
			lines = append(lines, st.Render(truncate(wrapped[i], m.w)))
		}
	}
	if s.note != "" {
		add(s.note, m.th.impossible)
	}
	for i := g.LogLen() - 1; i >= 0 && len(lines) < rows; i-- {
		msg := g.Message(i)
		add(msgText(msg), m.th.msgStyle(msg.Kind))
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

// effectLabel is how the status line names an effect: "Poisoned 12".
func effectLabel(k game.EffectKind) string {
	s := string(k)
	if s == "" {
		return "?"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
