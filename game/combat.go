package game

import (
	"fmt"
	"strings"
)

// Damage is the bump-to-attack rule: the attacker's power minus the target's
// defense, never below zero (python-tcod tutorial part 6).
func Damage(power, defense int) int { return max(0, power-defense) }

// attack makes a strike b, logging the hit and handling death.
func (g *Game) attack(a, b *Actor) {
	dmg := Damage(a.Power, b.Defense)
	isPlayer := a.Kind == "player"
	kind := MsgEnemyHit
	if isPlayer {
		kind = MsgPlayerHit
	}
	desc := fmt.Sprintf("The %s attacks you", a.Name)
	if isPlayer {
		desc = fmt.Sprintf("You attack the %s", b.Name)
	}
	if dmg > 0 {
		g.logf(kind, fmt.Sprintf("%s for %d %s.", desc, dmg, plural(dmg, "hit point", "hit points")))
	} else if isPlayer {
		g.logf(kind, desc+" but do no damage.")
	} else {
		g.logf(kind, desc+" but does no damage.")
	}
	b.HP -= dmg
	if b.HP <= 0 {
		g.die(b, a)
	}
}

// die turns b into remains; killer is who struck the blow.
func (g *Game) die(b, killer *Actor) {
	b.HP = 0
	if b.Kind == "player" {
		b.Glyph = '%'
		g.s.Over = true
		g.s.KilledBy = killer.Kind
		g.s.Cause = fmt.Sprintf("killed by %s on depth %d", withArticle(killer.Name), g.s.Depth)
		g.logf(MsgPlayerDeath, "You died!")
		return
	}
	g.logf(MsgEnemyDeath, fmt.Sprintf("The %s is dead!", b.Name))
	if killer.Kind == "player" {
		g.s.Kills++
		g.s.XPEarned += b.XP
	}
	b.Corpse = true
	b.Blocks = false
	b.AI = AINone
	b.Glyph = '%'
	b.Name = "remains of " + b.Name
}

func withArticle(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
