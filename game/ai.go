package game

import "github.com/grotto-game/grotto/game/world"

// monstersAct gives every living monster its turn, in the order they were
// spawned. Hostile monsters that see the player walk towards them along the
// shortest path around walls (one shared distance map, computed only when
// some monster needs it) and attack when adjacent. Seeing is symmetric: a
// monster sees the player exactly when the player sees it.
func (g *Game) monstersAct() {
	distReady := false
	for i := 1; i < len(g.s.Actors) && !g.s.Over; i++ {
		m := &g.s.Actors[i]
		if m.AI == AINone || !m.Alive() || g.skipsTurn(m) { // asleep or slowed (magic.go)
			continue
		}
		if m.Has(EffectConfusion) {
			g.stumble(m)
			continue
		}
		p := g.player()
		if !g.seesPlayer(m) {
			continue
		}
		if m.AI == AIHostile && m.Pos.Chebyshev(p.Pos) <= 1 {
			g.attack(m, p)
			continue
		}
		if !distReady {
			g.dist.Compute(g.s.Map, p.Pos, chaseLimit)
			distReady = true
		}
		if m.AI == AIHerbivore {
			g.flee(m)
		} else {
			g.stepDownhill(m)
		}
	}
}

// chaseLimit is how far, in steps, a monster will walk round walls to reach a
// player it sees: three times the FOV radius covers any detour worth taking.
const chaseLimit = 3 * FOVRadius

// seesPlayer reports whether m sees the player: the player sees m (FOV is
// symmetric) and the player is within m's vision range, which the noise of
// the player's equipment widens or narrows (magic.go, noise; at least 1).
func (g *Game) seesPlayer(m *Actor) bool {
	if !g.fov.Visible(m.Pos) {
		return false
	}
	v := max(1, m.Vision+g.noise())
	dx, dy := m.Pos.X-g.player().Pos.X, m.Pos.Y-g.player().Pos.Y
	return dx*dx+dy*dy <= v*v+v
}

// flee moves m to the free neighbouring tile farthest from the player by
// walking distance, if one is farther than where it stands (bats: the
// bracket-lib "herbivore").
func (g *Game) flee(m *Actor) {
	best, bestDist := m.Pos, g.dist.At(m.Pos)
	for _, d := range world.Directions8 {
		n := m.Pos.Add(d.X, d.Y)
		if !g.s.Map.At(n).Walkable() || g.blockerAt(n) != nil {
			continue
		}
		if dn := g.dist.At(n); dn > bestDist {
			best, bestDist = n, dn
		}
	}
	m.Pos = best
}

// stepDownhill moves m to the free neighbouring tile closest to the player, if
// one is closer than where it stands. Ties go to the first direction in
// world.Directions8, so the choice is deterministic.
func (g *Game) stepDownhill(m *Actor) {
	best, bestDist := m.Pos, g.dist.At(m.Pos)
	for _, d := range world.Directions8 {
		n := m.Pos.Add(d.X, d.Y)
		if dn := g.dist.At(n); dn < bestDist && g.blockerAt(n) == nil {
			best, bestDist = n, dn
		}
	}
	m.Pos = best
}

// stumble moves a confused actor one step in a random direction, attacking
// whatever stands there and bumping into walls (rot.js tutorial part 9,
// ConfusedEnemy).
func (g *Game) stumble(m *Actor) {
	d := world.Directions8[g.rng.IntN(len(world.Directions8))]
	to := m.Pos.Add(d.X, d.Y)
	if b := g.blockerAt(to); b != nil {
		g.attack(m, b)
		return
	}
	if g.s.Map.At(to).Walkable() {
		m.Pos = to
	}
}
