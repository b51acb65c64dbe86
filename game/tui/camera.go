package tui

import "github.com/grotto-game/grotto/game/world"

// camera is the top-left map tile shown at the top-left of the map viewport.
// It moves in jumps: it stays put while the player is well inside the view and
// re-centres on the player only near an edge, so a step redraws one or two
// cells over the wire instead of the whole screen.
type camera struct {
	x, y   int
	placed bool
}

// follow keeps p inside a viewW x viewH viewport of a mapW x mapH level.
// A level narrower than the view is centred in it.
func (c *camera) follow(p world.Pos, viewW, viewH, mapW, mapH int) {
	c.x = followAxis(c.x, p.X, viewW, mapW, c.placed)
	c.y = followAxis(c.y, p.Y, viewH, mapH, c.placed)
	c.placed = true
}

func followAxis(off, p, view, size int, placed bool) int {
	if view >= size {
		return -(view - size) / 2
	}
	margin := max(2, view/5)
	if !placed || p-off < margin || p-off >= view-margin {
		off = p - view/2
	}
	return max(0, min(off, size-view))
}

func pos(x, y int) world.Pos { return world.Pos{X: x, Y: y} }
