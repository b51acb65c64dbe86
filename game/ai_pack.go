package game

// This file is the pack behaviour: jackals and cave wolves hang
// back until enough of their pack is near the player, then close in
// together and take the tiles round them (Brogue's jackals and DCSS's
// packs of hounds come in groups; the waiting is grotto's, so that a pack
// arrives as one).

// Pack numbers: a pack member counts the living monsters of its kind within
// PackRadius tiles (Chebyshev) of the player, itself included; it closes in
// once they are PackNeed, or all of its kind left on the level if fewer.
// Until then it keeps more than PackHoldOff tiles away, for at most
// PackPatience turns in sight of the player: then it closes in alone (a
// tester's lone cave wolf hung back for ever, its kin elsewhere on the
// level).
const (
	PackRadius   = 6
	PackNeed     = 3
	PackHoldOff  = 2
	PackPatience = 10
)

// packTurn is a pack member's turn while it sees the player: next to the
// player it bites; with its pack gathered (packReady) it steps toward the
// player, each member to the nearest free tile, so that they end round
// them; and so it does once it has waited PackPatience turns; else it
// waits, stepping back if the player comes within PackHoldOff tiles.
func (g *Game) packTurn(m *Actor) {
	p := g.player()
	d := m.Pos.Chebyshev(p.Pos)
	if d <= 1 || g.packReady(m) || m.Waited >= PackPatience {
		g.chase(m)
		return
	}
	m.Waited++
	if d <= PackHoldOff {
		g.chaseMap()
		g.flee(m)
	}
}

// packReady reports whether enough of m's pack is near the player (see
// PackNeed).
func (g *Game) packReady(m *Actor) bool {
	p := g.player().Pos
	near, all := 0, 0
	for i := 1; i < len(g.s.Actors); i++ {
		a := &g.s.Actors[i]
		if a.Kind != m.Kind || !a.Alive() {
			continue
		}
		all++
		if a.Pos.Chebyshev(p) <= PackRadius {
			near++
		}
	}
	return near >= min(PackNeed, all)
}
