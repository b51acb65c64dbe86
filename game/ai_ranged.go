package game

// This file is the ranged behaviour: archers, slingers, casters
// and spitters keep their distance and shoot along a clear line, so that
// corridors, pillars and other monsters in the way matter (Brogue's archers
// "maintain distance"; DCSS's ranged monsters need a clear bolt path).

import "github.com/grotto-game/grotto/game/world"

// rangedTurn is a ranged monster's turn while it sees the player:
//   - next to the player it steps back to a tile farther away, but not two
//     turns running (Backed): the turn after a step back, or with nowhere
//     to go, it fights hand to hand;
//   - within its range (monsters.json "ranged") with a clear line of fire
//     (clearShot) it shoots, rolling like a blow with the shot's power;
//   - otherwise it walks toward the player, to get in range or round what
//     blocks the line.
func (g *Game) rangedTurn(m *Actor) {
	k, ok := g.data.Monster(m.Kind)
	if !ok || k.Ranged == nil {
		g.chase(m)
		return
	}
	p := g.player()
	d := m.Pos.Chebyshev(p.Pos)
	if d <= 1 {
		g.chaseMap()
		if !m.Backed && g.flee(m) {
			m.Backed = true
			return
		}
		m.Backed = false
		g.attack(m, p)
		return
	}
	m.Backed = false
	if d <= k.Ranged.Range && g.clearShot(m.Pos, p.Pos) {
		r := k.Ranged
		g.strike(m, p, blow{verb: r.Verb, verbYou: r.Verb, past: r.Past, power: r.Power, poison: r.Poison})
		return
	}
	g.chaseMap()
	g.stepDownhill(m)
}

// clearShot reports whether a shot from a flies to b: every tile of the
// straight line between them (world.Line, the path a thrown item flies)
// is one a projectile flies over (flies: deep water too, no wall) and
// holds no actor that blocks (a hidden lurker too). The tiles a and b
// themselves do not count.
func (g *Game) clearShot(a, b world.Pos) bool {
	line := world.Line(a, b)
	for _, q := range line[:len(line)-1] {
		if !g.flies(q) || g.blockerAt(q) != nil {
			return false
		}
	}
	return true
}
