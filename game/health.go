package game

// This file is what the player is told about health: the low-health
// warning (so that every death is one the player can understand) and the
// words look mode uses for a monster's wounds.

// LowHealth reports whether hp of max is low: below a third of max (9 of
// 30 HP or less). The status line turns red and says LOW HP, and the turn
// that brings the player below it logs "Your health is low!".
func LowHealth(hp, max int) bool { return hp*3 < max }

// MsgLowHealth is the message of the turn the player's HP falls below a
// third: once per crossing, not every turn spent below.
const MsgLowHealth = "Your health is low!"

// HealthWord names how hurt an actor with hp of max HP looks, as look mode
// says it: "unhurt" at full HP, "wounded" from half up, "badly wounded" from
// a quarter up, "nearly dead" below a quarter.
func HealthWord(hp, max int) string {
	switch {
	case hp >= max:
		return "unhurt"
	case hp*2 >= max:
		return "wounded"
	case hp*4 >= max:
		return "badly wounded"
	}
	return "nearly dead"
}

// warnLowHealth logs MsgLowHealth when the player, alive, has just gone
// from hpBefore (at or above the threshold) to below it.
func (g *Game) warnLowHealth(hpBefore int) {
	p := g.player()
	if p.Alive() && !LowHealth(hpBefore, p.MaxHP) && LowHealth(p.HP, p.MaxHP) {
		g.logf(MsgEnemyHit, MsgLowHealth)
	}
}

// unharmed reports whether b takes no damage at all: the player in god
// mode (an admin cheat). Messages then say so instead of claiming damage.
func (g *Game) unharmed(b *Actor) bool { return b.Kind == "player" && g.s.God }
