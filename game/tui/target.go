package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// targetMode is what a targeting screen is for.
type targetMode uint8

const (
	targetLook   targetMode = iota // only look: Enter or Esc leaves
	targetSingle                   // choose one tile
	targetArea                     // choose a centre; the area it hits is highlighted
)

// targetScreen is the targeting cursor of the tutorials (part 9): it moves
// with the movement keys (Shift ×5, Ctrl ×10, Alt ×20 where the terminal
// reports them) or the mouse, names what is under it, and for an area shows
// exactly the tiles the effect will hit. Enter, '.' or a click confirms; Esc
// cancels at no cost.
type targetScreen struct {
	back    *playScreen
	byMouse bool // the cursor last moved under the pointer: the camera holds still
	mode    targetMode
	radius  int
	cursor  world.Pos
	prompt  string
	act     func(world.Pos) game.Command // the command a confirmed target makes
	warned  *world.Pos                   // where the player was told the blast would hit them; nil if not
}

// selfWarning is said when an area effect aimed at the cursor would hit the
// player: the first confirm only warns, a second one there fires.
const selfWarning = "This will hit you too. Enter again to confirm."

// hitsPlayer reports whether the area effect centred on the cursor covers
// the player's tile.
func (t *targetScreen) hitsPlayer(m *Model) bool {
	if t.mode != targetArea {
		return false
	}
	w, h := m.game.Size()
	me := m.game.Player().Pos
	for _, p := range game.BlastArea(w, h, t.cursor, t.radius) {
		if p == me {
			return true
		}
	}
	return false
}

func newTargeting(m *Model, back *playScreen, mode targetMode, radius int, prompt string, act func(world.Pos) game.Command) *targetScreen {
	back.note = "" // the prompt takes its line; back in play it is spent
	t := &targetScreen{back: back, mode: mode, radius: radius, prompt: prompt, act: act}
	t.cursor = m.game.Player().Pos
	if mode != targetLook {
		t.cursor = closestVisibleMonster(m.game, t.cursor)
	}
	return t
}

// closestVisibleMonster returns the position of the nearest living monster in
// view, or from when there is none: where a player aims most of the time.
func closestVisibleMonster(g *game.Game, from world.Pos) world.Pos {
	best, bestD := from, -1
	for _, a := range g.Actors()[1:] {
		if a.Alive() && g.Visible(a.Pos) {
			dx, dy := a.Pos.X-from.X, a.Pos.Y-from.Y
			if d := dx*dx + dy*dy; bestD < 0 || d < bestD {
				best, bestD = a.Pos, d
			}
		}
	}
	return best
}

// step returns how far a key moves the cursor: its aiming step (the
// movement keys), times 5 with Shift (or a capital vi-key), 10 with Ctrl, 20
// with Alt.
func step(aim keyMap, k tea.KeyPressMsg) (world.Pos, bool) {
	key := tea.Key{Code: k.Code}.String()
	mult := 1
	if k.Code >= 'A' && k.Code <= 'Z' {
		key = strings.ToLower(key)
		mult = 5
	}
	switch {
	case k.Mod.Contains(tea.ModAlt):
		mult = 20
	case k.Mod.Contains(tea.ModCtrl):
		mult = 10
	case k.Mod.Contains(tea.ModShift):
		mult = 5
	}
	if _, bk, ok := aim.find(key); ok && bk.act == actAim {
		return world.Pos{X: bk.dir.X * mult, Y: bk.dir.Y * mult}, true
	}
	return world.Pos{}, false
}

func (t *targetScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	if _, bk, ok := m.keys.aim.find(k.String()); ok {
		switch bk.act {
		case actCancel:
			return t.back, nil
		case actFire:
			return t.confirm(m)
		case actGoto:
			if t.mode == targetLook {
				return t.back.travelTo(m, t.cursor)
			}
		}
	}
	if d, ok := step(m.keys.aim, k); ok {
		t.byMouse = false
		t.moveTo(m, t.cursor.Add(d.X, d.Y))
	}
	return t, nil
}

// moveTo puts the cursor at p, kept on the map.
func (t *targetScreen) moveTo(m *Model, p world.Pos) {
	w, h := m.game.Size()
	t.cursor = world.Pos{X: max(0, min(w-1, p.X)), Y: max(0, min(h-1, p.Y))}
}

func (t *targetScreen) confirm(m *Model) (screen, tea.Cmd) {
	if t.mode == targetLook { // Enter travels to the cursor; a click only looks
		return t.back.travelTo(m, t.cursor)
	}
	if t.hitsPlayer(m) && (t.warned == nil || *t.warned != t.cursor) {
		at := t.cursor
		t.warned = &at
		return t, nil
	}
	return t.back.apply(m, t.act(t.cursor))
}

// mouse moves the cursor to the tile under the pointer; a left click there
// confirms.
func (t *targetScreen) mouse(m *Model, msg tea.MouseMsg) (screen, tea.Cmd) {
	mouse := msg.Mouse()
	mapRows, _ := m.layout()
	p := world.Pos{X: t.back.cam.x + mouse.X, Y: t.back.cam.y + mouse.Y}
	if w, h := m.game.Size(); mouse.Y >= mapRows || mouse.X >= m.w || p.X < 0 || p.Y < 0 || p.X >= w || p.Y >= h {
		return t, nil // off the map: neither moves nor fires
	}
	t.byMouse = true
	t.cursor = p
	if c, ok := msg.(tea.MouseClickMsg); ok && c.Button == tea.MouseLeft {
		if t.mode == targetLook {
			return t.back, nil // a click in look mode leaves it, as before: Enter travels
		}
		return t.confirm(m)
	}
	return t, nil
}

func (t *targetScreen) view(m *Model) string {
	ov := &overlay{cursor: t.cursor}
	if t.mode == targetArea {
		w, h := m.game.Size()
		ov.area = game.BlastArea(w, h, t.cursor, t.radius)
	}
	line := t.prompt
	switch {
	case t.warned != nil && *t.warned == t.cursor:
		line = selfWarning
	case t.mode == targetLook:
		line += " (Enter travels there, Esc leaves)"
	default:
		line += " (Enter fires, Esc cancels)"
	}
	if names := lookNames(m.game, t.cursor); len(names) > 0 {
		line += " " + capitalizeFirst(strings.Join(names, ", ")) + "."
	} else {
		line += " You have not seen this place."
	}
	if why := m.game.Explain(t.cursor); why != "" && t.mode == targetLook {
		line += " " + why
	}
	return t.back.render(m, m.game, ov, line)
}

// lookNames is what look mode names at p: game.Describe, and on a tile
// out of view what the player remembers lying there (game.Remembered, as
// the map draws it dim: "remains of orc", "dart") before the tile's name,
// so a far altar's offering or a seen trap reads as the map shows it.
func lookNames(g *game.Game, p world.Pos) []string {
	names := g.Describe(p)
	if g.Visible(p) || len(names) == 0 {
		return names
	}
	var seen []string
	for _, s := range g.Remembered() {
		switch {
		case s.Pos != p:
		case s.Item != "":
			seen = append(seen, g.KindName(s.Item, 1))
		default:
			seen = append(seen, s.Remains)
		}
	}
	return append(seen, names...)
}

// settle moves the camera to keep the cursor in view, unless the cursor
// follows the mouse: then the map holds still under the pointer.
func (t *targetScreen) settle(m *Model) {
	if !t.byMouse {
		t.back.follow(m, m.game, t.cursor)
	}
}

// cursorHolder is a screen that puts the terminal's own cursor somewhere:
// targeting puts it on the cursor tile, so the tile shows on any terminal,
// colours or none.
type cursorHolder interface {
	terminalCursor(m *Model) *tea.Cursor
}

// terminalCursor returns the terminal cursor on the targeting cursor's cell,
// or nil when that tile is off the map rows.
func (t *targetScreen) terminalCursor(m *Model) *tea.Cursor {
	mapRows, _ := m.layout()
	x, y := t.cursor.X-t.back.cam.x, t.cursor.Y-t.back.cam.y
	if x < 0 || y < 0 || x >= m.w || y >= mapRows {
		return nil
	}
	return tea.NewCursor(x, y)
}

func capitalizeFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
