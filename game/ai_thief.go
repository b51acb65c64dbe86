package game

// This file is the thief behaviour: a cave monkey's hit steals a
// random item the player is not wearing, and it runs; out of the player's
// sight for ThiefEscapeTurns turns running it leaves the level with it;
// killed, it drops what it took (NetHack's nymphs and leprechauns, Brogue's
// monkeys, which "steal an item and flee").

import "fmt"

// ThiefEscapeTurns is how many turns in a row a fleeing thief must spend
// out of the player's sight to get away.
const ThiefEscapeTurns = 8

// steal takes a random unworn item from the player's pack into thief m's
// loot, once: m then flees (Fleeing). Nothing happens with nothing to take.
func (g *Game) steal(m *Actor) {
	if len(m.Loot) > 0 || m.Fleeing {
		return
	}
	var can []int
	for i, it := range g.s.Inventory {
		if !it.Worn {
			can = append(can, i)
		}
	}
	if len(can) == 0 {
		return
	}
	it := g.takeFromInventory(can[g.rng.IntN(len(can))])
	m.Loot = append(m.Loot, it)
	m.Fleeing, m.Unseen = true, 0
	g.logf(MsgEnemyHit, fmt.Sprintf("The %s steals your %s!", m.Name, g.ItemName(it)))
}

// runOff is a fleeing thief's turn: it steps away from the player, biting
// only when cornered next to them; it counts its turns out of the player's
// sight, and after ThiefEscapeTurns of them it reports true: it has left
// the level with its loot.
func (g *Game) runOff(m *Actor) bool {
	if g.visible(m.Pos) {
		m.Unseen = 0
	} else if m.Unseen++; m.Unseen >= ThiefEscapeTurns {
		what := "its loot"
		if len(m.Loot) > 0 {
			what = "your " + g.ItemName(m.Loot[0])
		}
		g.logf(MsgInfo, fmt.Sprintf("The %s has got away with %s.", m.Name, what))
		return true
	}
	g.chaseMap()
	if !g.flee(m) && m.Pos.Chebyshev(g.player().Pos) <= 1 {
		g.attack(m, g.player())
	}
	return false
}

// dropLoot puts what dead thief b stole on the floor where it died.
func (g *Game) dropLoot(b *Actor) {
	for _, it := range b.Loot {
		it.Pos, it.Worn = b.Pos, false
		g.s.Items = append(g.s.Items, it)
		g.logf(MsgInfo, fmt.Sprintf("The %s drops your %s.", b.Name, g.ItemName(it)))
	}
	b.Loot, b.Fleeing = nil, false
}
