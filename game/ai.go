package game

// This file is the monsters' turn: who acts and how often, the moves every
// behaviour shares (chase, flee, stumble) and the slow healing of monsters
// out of sight. Each behaviour beyond chasing has its rule in its own
// ai_*.go file.

import (
	"slices"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// MonsterRegenTurns is how often, in turns, a hurt monster out of the
// player's sight heals 1 HP (NetHack's monsters heal 1 HP every 20 turns;
// grotto's levels are short, so faster). It is what brings a coward back.
const MonsterRegenTurns = 5

// monstersAct gives every living monster its turn, in the order they were
// spawned: a fast one twice, a slow one on even turns only (Speed in
// monsters.json). Monsters born this turn (breeders) act from the next.
// Then hurt monsters out of sight heal, and thieves that got away leave the
// level. Seeing is symmetric: a monster sees the player exactly when the
// player sees it.
func (g *Game) monstersAct() {
	g.distFresh = false
	var gone []int
	for i, n := 1, len(g.s.Actors); i < n && !g.s.Over; i++ {
		times := 1
		if k, ok := g.data.Monster(g.s.Actors[i].Kind); ok {
			switch k.Speed {
			case content.SpeedFast:
				times = 2
			case content.SpeedSlow:
				times = 1 - g.s.Turn%2
			}
		}
		for range times {
			if g.s.Over {
				break
			}
			if g.monsterTurn(&g.s.Actors[i]) {
				gone = append(gone, i)
				break
			}
		}
	}
	for _, i := range slices.Backward(gone) {
		g.s.Actors = slices.Delete(g.s.Actors, i, i+1)
	}
	g.regenerate()
}

// monsterTurn is one action of m by its behaviour. It reports whether m
// left the level (a thief that got away).
func (g *Game) monsterTurn(m *Actor) (left bool) {
	if m.AI == AINone || !m.Alive() || g.skipsTurn(m) { // asleep or slowed (magic.go)
		return false
	}
	if m.Has(EffectConfusion) {
		g.stumble(m)
		return false
	}
	switch m.AI {
	case AILurker:
		if g.lurk(m) {
			return false
		}
	case AISleeper:
		if g.doze(m) {
			return false
		}
	case AICoward:
		g.takeHeart(m)
	case AIThief:
		if m.Fleeing {
			return g.runOff(m)
		}
	}
	if !g.seesPlayer(m) {
		g.hunt(m) // an arrival walks toward the player unseen (wander.go)
		return false
	}
	m.Hunting = false
	switch m.AI {
	case AIHerbivore:
		g.chaseMap()
		g.flee(m)
	case AIRanged:
		g.rangedTurn(m)
	case AICoward:
		g.cowardTurn(m)
	case AIPack:
		g.packTurn(m)
	case AIBreeder:
		if !g.breed(m) {
			g.chase(m)
		}
	default:
		g.chase(m)
	}
	return false
}

// chase attacks the player from an adjacent tile, or steps toward them
// (python-tcod tutorial part 6, HostileEnemy).
func (g *Game) chase(m *Actor) {
	if m.Pos.Chebyshev(g.player().Pos) <= 1 {
		g.attack(m, g.player())
		return
	}
	g.chaseMap()
	g.stepDownhill(m)
}

// chaseMap makes g.dist the walking distances from the player, computed at
// most once per monsters' turn (monstersAct marks it stale).
func (g *Game) chaseMap() {
	if !g.distFresh {
		g.dist.Compute(g.s.Map, g.player().Pos, chaseLimit)
		g.distFresh = true
	}
}

// regenerate heals every hurt living monster out of the player's sight 1 HP
// each MonsterRegenTurns turns.
func (g *Game) regenerate() {
	if g.s.Turn%MonsterRegenTurns != 0 {
		return
	}
	for i := 1; i < len(g.s.Actors); i++ {
		if m := &g.s.Actors[i]; m.Alive() && m.HP < m.MaxHP && !g.visible(m.Pos) {
			m.HP++
		}
	}
}

// chaseLimit is how far, in steps, a monster will walk round walls to reach a
// player it sees: three times the FOV radius covers any detour worth taking.
const chaseLimit = 3 * FOVRadius

// seesPlayer reports whether m sees the player: the player sees m (FOV is
// symmetric) and the player is within m's vision range, which the noise of
// the player's equipment widens or narrows (magic.go, gearNoise; at least 1).
func (g *Game) seesPlayer(m *Actor) bool {
	if !g.fov.Visible(m.Pos) {
		return false
	}
	v := max(1, m.Vision+g.gearNoise())
	dx, dy := m.Pos.X-g.player().Pos.X, m.Pos.Y-g.player().Pos.Y
	return dx*dx+dy*dy <= v*v+v
}

// flee moves m to the free neighbouring tile farthest from the player by
// walking distance (g.dist, see chaseMap), if one is farther than where it
// stands (bats: the bracket-lib "herbivore"). It reports whether m moved.
func (g *Game) flee(m *Actor) bool {
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
	moved := best != m.Pos
	m.Pos = best
	return moved
}

// stepDownhill moves m to the free neighbouring tile closest to the player
// (g.dist), if one is closer than where it stands. Ties go to the first
// direction in world.Directions8, so the choice is deterministic.
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

// seenBy reports whether the player sees m now and would be told what it
// does: alive, not hidden, on a tile in view.
func (g *Game) seenBy(m *Actor) bool { return m.Alive() && !m.Hidden && g.visible(m.Pos) }
