package tui

import (
	"slices"

	"github.com/grotto-game/grotto/game/world"
)

// camera is the top-left map tile shown at the top-left of the map viewport.
// It moves in jumps: it stays put while the player is well inside the view and
// every monster in view is on screen, and re-centres only near an edge or
// when a monster in view would be off screen, so a step redraws one or two
// cells over the wire instead of the whole screen.
type camera struct {
	x, y   int
	placed bool
}

// follow keeps p inside a viewW x viewH viewport of a mapW x mapH level,
// and as many of also (the monsters in view) as fit with it, nearest to p
// first: a monster the game says is in view is drawn (a tester's
// orc "in view (7 tiles south-east)" was off an 80x24 screen). A level
// narrower than the view is centred in it.
func (c *camera) follow(p world.Pos, also []world.Pos, viewW, viewH, mapW, mapH int) {
	lo, hi := p, p
	near := slices.Clone(also)
	slices.SortStableFunc(near, func(a, b world.Pos) int { return chebyshev(p, a) - chebyshev(p, b) })
	for _, q := range near {
		nlo := world.Pos{X: min(lo.X, q.X), Y: min(lo.Y, q.Y)}
		nhi := world.Pos{X: max(hi.X, q.X), Y: max(hi.Y, q.Y)}
		if (viewW < mapW && nhi.X-nlo.X >= viewW) || (viewH < mapH && nhi.Y-nlo.Y >= viewH) {
			continue // does not fit beside p and the nearer ones
		}
		lo, hi = nlo, nhi
	}
	c.x = followAxis(c.x, p.X, lo.X, hi.X, viewW, mapW, c.placed)
	c.y = followAxis(c.y, p.Y, lo.Y, hi.Y, viewH, mapH, c.placed)
	c.placed = true
}

// followAxis returns the offset on one axis that keeps p away from the
// view's edges by a margin and lo..hi (p and what must be seen with it,
// which fits in view) on screen: the old offset when it does, else one
// centred on p, else one centred on lo..hi.
func followAxis(off, p, lo, hi, view, size int, placed bool) int {
	if view >= size {
		return -(view - size) / 2
	}
	clamp := func(o int) int { return max(0, min(o, size-view)) }
	shows := func(o int) bool { return lo >= o && hi < o+view }
	margin := max(2, view/5)
	if placed && p-off >= margin && p-off < view-margin && shows(off) {
		return clamp(off)
	}
	if o := clamp(p - view/2); shows(o) {
		return o
	}
	return clamp((lo+hi)/2 - view/2)
}

// chebyshev is the distance from a to b in king's moves (tiles).
func chebyshev(a, b world.Pos) int { return max(abs(a.X-b.X), abs(a.Y-b.Y)) }

func pos(x, y int) world.Pos { return world.Pos{X: x, Y: y} }
