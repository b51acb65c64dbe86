package game

import (
	"fmt"
	"strings"
)

// Damage is the bump-to-attack rule: the attacker's power minus the target's
// defense, never below zero (python-tcod tutorial part 6).
func Damage(power, defense int) int { return max(0, power-defense) }

// the names an actor as a message's subject or object: "you" or "the orc".
func the(a *Actor) string {
	if a.Kind == "player" {
		return "you"
	}
	return "the " + a.Name
}

// verb conjugates a verb for an actor: "you attack", "the orc attacks".
func verb(a *Actor, you, it string) string {
	if a.Kind == "player" {
		return you
	}
	return it
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// attack makes a strike b (bump to attack), logging the hit and handling
// death. Power and defense include equipment (equipment.go). Monsters can strike each other when confusion makes them stumble.
func (g *Game) attack(a, b *Actor) {
	dmg := Damage(g.power(a), g.defense(b))
	kind := MsgEnemyHit
	if a.Kind == "player" {
		kind = MsgPlayerHit
	}
	if g.misses(a, b) { // equipment's accuracy and evasion (magic.go)
		g.logf(kind, capitalize(the(a))+" "+verb(a, "miss", "misses")+" "+the(b)+".")
		return
	}
	desc := capitalize(the(a)) + " " + verb(a, "attack", "attacks") + " " + the(b)
	switch {
	case dmg > 0 && g.unharmed(b):
		g.logf(kind, desc+" but you are unharmed (god mode).")
	case dmg > 0:
		g.logf(kind, fmt.Sprintf("%s for %d %s.", desc, dmg, plural(dmg, "hit point", "hit points")))
	default:
		g.logf(kind, desc+" but "+verb(a, "do", "does")+" no damage.")
	}
	g.hurt(b, dmg, withArticle(a.Name), fmt.Sprintf("it hit you for %d", dmg), a.Kind == "player")
}

// hurt takes dmg HP from b; if that kills b, cause says what did it ("an
// orc", "poison", "a fireball"), how says how in a few words for the
// player's death ("it hit you for 4"; "" for nothing more), and byPlayer
// whether the kill is the player's.
func (g *Game) hurt(b *Actor, dmg int, cause, how string, byPlayer bool) {
	if !b.Alive() || g.unharmed(b) {
		return
	}
	if dmg > 0 {
		g.wake(b) // a blow wakes a sleeper (magic.go)
	}
	b.HP -= dmg
	if b.HP <= 0 {
		g.die(b, cause, how, byPlayer)
	}
}

// die turns b into remains. The player's death sets the game's cause:
// "killed by a large spider on depth 3 (it hit you for 4)".
func (g *Game) die(b *Actor, cause, how string, byPlayer bool) {
	b.HP = 0
	for _, e := range b.Effects { // the dead keep no bonus (a save holds base stats)
		undoEffect(b, e.Kind)
	}
	b.Effects = nil
	if b.Kind == "player" {
		b.Glyph = '%'
		g.s.Over = true
		g.s.Cause = fmt.Sprintf("killed by %s on depth %d", cause, g.s.Depth)
		if how != "" {
			g.s.Cause += " (" + how + ")"
		}
		g.logf(MsgPlayerDeath, "You died!")
		return
	}
	g.logf(MsgEnemyDeath, fmt.Sprintf("The %s is dead!", b.Name))
	if byPlayer {
		g.s.Kills++
		g.s.Slain = countKill(g.s.Slain, b.Name)
		g.s.XPEarned += b.XP
		g.gainXP(b.XP)
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
