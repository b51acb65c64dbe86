package game

// This file is the lurker behaviour: a cave lurker waits unseen
// (not drawn, not listed, not described: view.go leaves hidden actors out)
// until the player comes within LurkerReach tiles or bumps into it, then
// springs (NetHack's trappers and lurkers above hide until touched; Brogue's
// eels and bog monsters wait submerged).

import "fmt"

// LurkerReach is how close, in tiles (Chebyshev, in line of sight), the
// player must come for a hidden lurker to spring.
const LurkerReach = 2

// lurk is a hidden lurker's turn: it keeps still and hidden, and reports
// true, until the player is within LurkerReach in its sight; then it
// springs with a message and reports false, so it acts at once as a
// hostile monster (a bite if the player stands next to it).
func (g *Game) lurk(m *Actor) bool {
	if !m.Hidden {
		return false
	}
	if !g.fov.Visible(m.Pos) || m.Pos.Chebyshev(g.player().Pos) > LurkerReach {
		return true
	}
	m.Hidden = false
	g.logf(MsgEnemyHit, fmt.Sprintf("A %s springs out at you!", m.Name))
	return false
}
