package game

// This file is the monsters that keep arriving (beside
// hunger in clock.go): every WanderMinTurns..WanderMaxTurns turns on a
// level, a monster of the depth's spawn table arrives out of the player's
// sight and walks toward them. Hunger makes resting cost food; arrivals
// make it cost fights, as NetHack's random generation (makemon.c, 1 in 70
// a turn early on) and Brogue's periodic spawns do. The bots' report
// measures what resting to full costs (docs/balance.md, "rester").

import (
	"github.com/grotto-game/grotto/game/world"
)

// Arrival numbers, in turns and tiles. The countdown to the next arrival
// is drawn uniformly from WanderMinTurns..WanderMaxTurns when a level is
// entered and after each arrival. A monster arrives at a tile the player
// does not see, WanderMinSteps..chaseLimit steps' walk from them, outside
// every special room; none arrives while WanderCap monsters live on the
// level. Balance numbers, tuned with the bots' report.
const (
	WanderMinTurns = 150 // fewest turns between two arrivals on a level
	WanderMaxTurns = 250 // most turns between two arrivals on a level
	WanderMinSteps = 10  // nearest an arrival appears, in steps' walk from the player
	WanderCap      = 20  // no arrival while this many living monsters are on the level
)

// wanderMessage is what the turn a monster arrives says: it is not seen,
// but a player resting should know the level is not empty.
const wanderMessage = "You hear something moving in the distance."

// WanderIn returns the turns until the next monster arrives on this level,
// 0 when the countdown has not been drawn yet (the first turn of a level,
// or a save from before arrivals). Not shown to the player; tests read it.
func (g *Game) WanderIn() int { return g.s.Wander }

// tickWander is the arrivals' part of a turn that took time, after the
// clock's: it draws the countdown when there is none, counts it down, and
// when it reaches 0 brings a monster (arrive) and draws the next.
func (g *Game) tickWander() {
	if g.s.Over || !g.player().Alive() {
		return
	}
	if g.s.Wander <= 0 {
		g.s.Wander = WanderMinTurns + g.rng.IntN(WanderMaxTurns-WanderMinTurns+1)
		return
	}
	if g.s.Wander--; g.s.Wander > 0 {
		return
	}
	g.arrive()
	g.s.Wander = WanderMinTurns + g.rng.IntN(WanderMaxTurns-WanderMinTurns+1)
}

// arrive brings one monster of the depth's spawn table to a free walkable
// tile the player does not see, WanderMinSteps..chaseLimit steps away and
// outside every special room (a vault stays sealed), chosen uniformly
// among such tiles in row-major order. It arrives awake and Hunting. No
// monster arrives while WanderCap live on the level or no tile qualifies.
func (g *Game) arrive() {
	living := 0
	for i := 1; i < len(g.s.Actors); i++ {
		if a := &g.s.Actors[i]; a.Alive() && a.AI != AINone {
			living++
		}
	}
	if living >= WanderCap {
		return
	}
	g.distFresh = false
	g.chaseMap()
	var spots []world.Pos
	for y := range g.s.Map.H {
		for x := range g.s.Map.W {
			p := world.Pos{X: x, Y: y}
			d := int(g.dist.At(p))
			if d < WanderMinSteps || d > chaseLimit || g.vis[y*g.s.Map.W+x] ||
				!g.s.Map.At(p).Walkable() || g.blockerAt(p) != nil || g.inSpecialRoom(p) {
				continue
			}
			spots = append(spots, p)
		}
	}
	if len(spots) == 0 {
		return
	}
	p := spots[g.rng.IntN(len(spots))]
	k, ok := g.data.Monster(pickSpawn(g.rng, g.data.MonsterSpawns, g.s.Depth))
	if !ok {
		return
	}
	m := newMonster(k, p)
	m.Hidden, m.Asleep, m.Hunting = false, false, true
	g.s.Actors = append(g.s.Actors, m)
	g.logf(MsgStatus, wanderMessage)
}

// inSpecialRoom reports whether p lies inside one of the level's special
// rooms (special.go), walls included.
func (g *Game) inSpecialRoom(p world.Pos) bool {
	for _, r := range g.s.Rooms {
		if p.X >= r.X && p.X < r.X+r.W && p.Y >= r.Y && p.Y < r.Y+r.H {
			return true
		}
	}
	return false
}

// hunt is the turn of a Hunting monster that does not see the player: it
// walks toward them (g.dist, chaseLimit steps at most), as if it heard
// them. It reports whether m hunted; a monster that sees the player stops
// Hunting and acts by its behaviour from then on.
func (g *Game) hunt(m *Actor) bool {
	if !m.Hunting || m.Fleeing {
		return false
	}
	g.chaseMap()
	g.stepDownhill(m)
	return true
}
