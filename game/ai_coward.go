package game

// This file is the coward behaviour: it fights until badly
// hurt, then runs, and comes back once it has healed out of sight
// (NetHack's monsters flee at low HP; DCSS's "flees at low health").

import "fmt"

// takeHeart updates a coward's mind at the start of its turn, seen or not:
// below a third of its HP (LowHealth) it starts to flee; healed back to two
// thirds (MonsterRegenTurns heals it out of sight) it stops fleeing and
// comes back.
func (g *Game) takeHeart(m *Actor) {
	switch {
	case !m.Fleeing && LowHealth(m.HP, m.MaxHP):
		m.Fleeing = true
		if g.seenBy(m) {
			g.logf(MsgInfo, fmt.Sprintf("The %s turns to flee!", m.Name))
		}
	case m.Fleeing && m.HP*3 >= m.MaxHP*2:
		m.Fleeing = false
	}
}

// cowardTurn is a coward's turn while it sees the player: fleeing, it steps
// away, and fights only when cornered next to the player; otherwise it
// chases like any hostile monster.
func (g *Game) cowardTurn(m *Actor) {
	if !m.Fleeing {
		g.chase(m)
		return
	}
	g.chaseMap()
	if !g.flee(m) && m.Pos.Chebyshev(g.player().Pos) <= 1 {
		g.attack(m, g.player())
	}
}
