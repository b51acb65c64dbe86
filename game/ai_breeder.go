package game

// This file is the breeder behaviour: a green ooze splits now
// and then while it sees the player, so it must be killed fast (NetHack's
// lichens and Brogue's pink jellies multiply; the cap keeps a level from
// filling, as NetHack caps a level's monsters).

import (
	"fmt"

	"github.com/grotto-game/grotto/game/world"
)

// Breeding numbers: each turn it sees the player a breeder splits with a
// chance of 1 in BreedOdds, into a random free tile next to it, while fewer
// than BreedCap of its kind (living or remains) have been on the level.
const (
	BreedOdds = 8
	BreedCap  = 16
)

// breed is a breeder's try at splitting; it reports whether it did (which
// takes its turn). The new one has its kind's full HP and acts from the
// next turn.
func (g *Game) breed(m *Actor) bool {
	if g.rng.IntN(BreedOdds) != 0 {
		return false
	}
	count := 0
	for _, a := range g.s.Actors {
		if a.Kind == m.Kind {
			count++
		}
	}
	if count >= BreedCap {
		return false
	}
	var free []world.Pos
	for _, d := range world.Directions8 {
		n := m.Pos.Add(d.X, d.Y)
		if g.s.Map.At(n).Walkable() && g.blockerAt(n) == nil {
			free = append(free, n)
		}
	}
	if len(free) == 0 {
		return false
	}
	child := m.clone()
	child.Pos = free[g.rng.IntN(len(free))]
	child.HP, child.Effects, child.Loot = child.MaxHP, nil, nil
	if g.seenBy(m) {
		g.logf(MsgInfo, fmt.Sprintf("The %s splits in two!", m.Name))
	}
	g.s.Actors = append(g.s.Actors, child) // m may move in memory: not used after this
	return true
}
