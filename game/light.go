package game

import (
	"math"

	"github.com/grotto-game/grotto/game/world"
)

// lighting is the light on each tile of a dark level (bracket-lib tutorial,
// "Lighting"): a visible tile's light is the sum over the light sources that
// see it of colour × (range − distance) / range, with Euclidean distance. It
// is cosmetic and derived from the state each turn, never saved.
type lighting struct {
	w, h   int
	rgb    []float64 // W x H x 3, row-major, 0 = dark; values may exceed 1
	others []bool    // W x H: lit by a source other than the player's torch
	fov    *world.FOV
}

func newLighting(w, h int) *lighting {
	return &lighting{w: w, h: h, rgb: make([]float64, 3*w*h), others: make([]bool, w*h), fov: world.NewFOV(w, h)}
}

// byOthers reports whether a light other than the player's torch reaches p.
func (l *lighting) byOthers(p world.Pos) bool { return l.others[p.Y*l.w+p.X] }

// updateLight recomputes the light on a dark level from the player's torch
// and every living actor that carries or gives off light, over the player's
// line of sight (g.fov).
func (g *Game) updateLight() {
	if !g.s.Dark {
		return
	}
	l := g.light
	clear(l.rgb)
	clear(l.others)
	tables := g.data
	for _, a := range g.s.Actors {
		if !a.Alive() {
			continue
		}
		if a.Kind == "player" {
			l.add(g, a.Pos, PlayerTorchRange, PlayerTorch, false)
			continue
		}
		if k, ok := tables.Monster(a.Kind); ok && k.Light != nil {
			c := k.Light.Color
			l.add(g, a.Pos, k.Light.Range, [3]float64{float64(c.R) / 255, float64(c.G) / 255, float64(c.B) / 255}, true)
		}
	}
}

// add lights the tiles that a source at p of rng tiles sees and that are in
// the player's line of sight; other marks them as lit by someone else.
func (l *lighting) add(g *Game, p world.Pos, rng int, color [3]float64, other bool) {
	l.fov.Compute(g.s.Map, p, rng)
	r := float64(rng)
	for y := max(0, p.Y-rng); y <= min(l.h-1, p.Y+rng); y++ {
		for x := max(0, p.X-rng); x <= min(l.w-1, p.X+rng); x++ {
			t := world.Pos{X: x, Y: y}
			if !l.fov.Visible(t) || !g.fov.Visible(t) {
				continue
			}
			dx, dy := float64(x-p.X), float64(y-p.Y)
			intensity := (r - math.Sqrt(dx*dx+dy*dy)) / r
			if intensity <= 0 {
				continue
			}
			i := 3 * (y*l.w + x)
			for c := range 3 {
				l.rgb[i+c] += color[c] * intensity
			}
			if other {
				l.others[y*l.w+x] = true
			}
		}
	}
}

// Dark reports whether the level is lit only by light sources; then Light
// gives each visible tile's light.
func (g *Game) Dark() bool { return g.s.Dark }

// Light returns the light on p as red, green, blue multipliers (0 = dark; a
// sum of sources may exceed 1). On a level that is not Dark it is 1, 1, 1.
func (g *Game) Light(p world.Pos) (r, gr, b float64) {
	if !g.s.Dark {
		return 1, 1, 1
	}
	if p.X < 0 || p.Y < 0 || p.X >= g.light.w || p.Y >= g.light.h {
		return 0, 0, 0
	}
	i := 3 * (p.Y*g.light.w + p.X)
	return g.light.rgb[i], g.light.rgb[i+1], g.light.rgb[i+2]
}

// LevelName returns the name of the current level, e.g. "Limestone Caverns".
func (g *Game) LevelName() string { return g.s.Level }
