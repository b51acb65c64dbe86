package game

// This file is the sleeper behaviour: an ogre starts asleep and
// wakes on noise, on a blow, or by chance while the player is in its sight
// (DCSS's sleeping monsters and stealth checks, NetHack's sleeping
// monsters woken by noise). A sleeping monster is always hit (combat.go).

import (
	"fmt"

	"github.com/grotto-game/grotto/game/world"
)

// Sleep numbers: a sleeper in sight of the player wakes with a chance of 1
// in WakeOdds each turn; any blow struck within NoiseRadius tiles
// (Chebyshev) of it wakes it at once.
const (
	WakeOdds    = 4
	NoiseRadius = 4
)

// doze is a sleeper's turn while asleep: it reports true while it sleeps
// on; waking by chance takes its turn too ("The ogre wakes up!").
func (g *Game) doze(m *Actor) bool {
	if !m.Asleep {
		return false
	}
	if g.seesPlayer(m) && g.rng.IntN(WakeOdds) == 0 {
		g.wake(m)
	}
	return true
}

// noise wakes every sleeper within NoiseRadius of at: a blow was struck there.
func (g *Game) noise(at world.Pos) {
	for i := 1; i < len(g.s.Actors); i++ {
		if m := &g.s.Actors[i]; m.Asleep && m.Alive() && m.Pos.Chebyshev(at) <= NoiseRadius {
			g.wake(m)
		}
	}
}

// wake wakes m, saying so if the player sees it.
func (g *Game) wake(m *Actor) {
	m.Asleep = false
	if g.seenBy(m) {
		g.logf(MsgInfo, fmt.Sprintf("The %s wakes up!", m.Name))
	}
}
