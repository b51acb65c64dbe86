package game

import (
	"fmt"
	"strings"

	"github.com/grotto-game/grotto/game/world"
)

// Damage is the typical blow: the attacker's power minus the target's
// defense, never below zero (python-tcod tutorial part 6). Since rules
// version 2 a blow's damage is rolled (DamageRange) and Damage is the middle of its range.
func Damage(power, defense int) int { return max(0, power-defense) }

// To-hit numbers, after DCSS and Brogue, where most blows land
// and a point of accuracy or evasion moves the odds by a few percent: the
// chance, in %, is BaseHit + HitStep × (accuracy − evasion), kept within
// MinHit..MaxHit so that nothing is certain.
const (
	BaseHit = 80
	HitStep = 5
	MinHit  = 5
	MaxHit  = 95
)

// HitChance returns the chance in % that a blow of an attacker with
// accuracy lands on a target with evasion (see BaseHit).
func HitChance(accuracy, evasion int) int {
	return min(MaxHit, max(MinHit, BaseHit+HitStep*(accuracy-evasion)))
}

// DamageRange returns the least and the most HP a blow of power takes from
// a target of defense: the blow rolls uniformly from ceil(2×power/3) to
// power + power/3 (a spread like Brogue's monsters' damage, its mean about
// power, so fights keep the lengths they had), then defense is taken off,
// never below 0.
func DamageRange(power, defense int) (lo, hi int) {
	lo, hi = (2*power+2)/3, power+power/3
	return max(0, lo-defense), max(0, hi-defense)
}

// The player's to-hit modifiers (see HitChance): a trained adventurer
// against cave vermin, as DCSS's starting fighters out-hit its early
// monsters. With them the player's blows land 90% and an even monster's
// 70%, which keeps the careful bot's odds near what they were before blows
// rolled (the balance pass tunes them with the bot report).
const (
	PlayerAccuracy = 2
	PlayerEvasion  = 2
)

// Odds are the chances of one kind of blow: Chance in % that it lands and
// the HP it takes if it does, Min to Max.
type Odds struct {
	Chance   int // %
	Min, Max int // HP
}

// Threat is what look mode tells of a monster: its blow against the
// player, its shot if it has one, and the player's blow against it.
type Threat struct {
	Melee  Odds // its blow when next to you
	Shot   Odds // its shot (Ranged only)
	Ranged bool // it has a shot
	Range  int  // how far it shoots, in tiles
	Yours  Odds // your blow against it
}

// accuracy and evasion are an actor's to-hit modifiers (monsters.json; the
// player has none).
func (g *Game) accuracy(a *Actor) int {
	if a.Kind == "player" {
		return PlayerAccuracy
	}
	if k, ok := g.data.Monster(a.Kind); ok {
		return k.Accuracy
	}
	return 0
}

func (g *Game) evasion(a *Actor) int {
	if a.Kind == "player" {
		return PlayerEvasion
	}
	if k, ok := g.data.Monster(a.Kind); ok {
		return k.Evasion
	}
	return 0
}

// odds returns the odds of a's blow of power against b. A sleeping target
// is always hit (DCSS: a sleeping monster cannot dodge).
func (g *Game) odds(a, b *Actor, power int) Odds {
	lo, hi := DamageRange(power, g.defense(b))
	return Odds{Chance: g.chance(a, b), Min: lo, Max: hi}
}

// chance returns the chance in % that a's blow lands on b: HitChance of
// their accuracy and evasion, plus the % of what a wears and less the % of
// what b wears (items.json "accuracy", "evasion"), kept within
// MinHit..MaxHit. A sleeping target is always hit (DCSS: a sleeping
// monster cannot dodge), whether a sleeper or put to sleep.
func (g *Game) chance(a, b *Actor) int {
	if b.Asleep || b.Has(EffectSleep) {
		return 100
	}
	c := HitChance(g.accuracy(a), g.evasion(b)) + g.gearAccuracy(a) - g.gearEvasion(b)
	return min(MaxHit, max(MinHit, c))
}

// Threat returns what the player knows of the monster at p, if the player
// sees a living one there (hidden lurkers are not seen): its odds against
// the player and the player's against it.
func (g *Game) Threat(p world.Pos) (Threat, bool) {
	m := g.seenAt(p)
	if m == nil {
		return Threat{}, false
	}
	pl := g.player()
	t := Threat{Melee: g.odds(m, pl, g.power(m)), Yours: g.odds(pl, m, g.power(pl))}
	if k, ok := g.data.Monster(m.Kind); ok && k.Ranged != nil {
		t.Ranged, t.Range, t.Shot = true, k.Ranged.Range, g.odds(m, pl, k.Ranged.Power)
	}
	return t, true
}

// seenAt returns the living monster the player sees at p, or nil.
func (g *Game) seenAt(p world.Pos) *Actor {
	if !g.visible(p) {
		return nil
	}
	for i := 1; i < len(g.s.Actors); i++ {
		if a := &g.s.Actors[i]; a.Pos == p && a.Alive() && !a.Hidden {
			return a
		}
	}
	return nil
}

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

// blow is one kind of strike: the words its messages use.
type blow struct {
	verb, verbYou string // "attacks" (a monster), "attack" (you)
	past          string // for the cause of death: "hit"
	power         int
	poison        int // turns of poison a hit gives
}

// attack makes a strike b (bump to attack) with its power, equipment
// included (equipment.go). Monsters can strike each other when confusion
// makes them stumble.
func (g *Game) attack(a, b *Actor) {
	g.strike(a, b, blow{verb: "attacks", verbYou: "attack", past: "hit", power: g.power(a)})
}

// strike rolls a's blow at b: it lands with the chance of
// HitChance and takes a roll of DamageRange; a miss says so ("The orc
// attacks you but misses.", "You miss the orc."). Striking a hidden lurker
// reveals it; any blow is noise that wakes sleepers near (NoiseRadius); a
// thief's hit on the player steals (ai_thief.go). It reports whether the
// blow landed.
func (g *Game) strike(a, b *Actor, w blow) bool {
	if b.Hidden {
		b.Hidden = false
		g.logf(MsgEnemyHit, fmt.Sprintf("You stumble into a hidden %s!", b.Name))
	}
	o := g.odds(a, b, w.power)
	g.noise(a.Pos)
	kind := MsgEnemyHit
	if a.Kind == "player" {
		kind = MsgPlayerHit
	}
	from := "" // a shot at the player says where it came from (the tester's arrows from off the screen)
	if b.Kind == "player" && a.Pos.Chebyshev(b.Pos) > 1 {
		from = " from the " + Compass(b.Pos, a.Pos)
	}
	if g.rng.IntN(100) >= o.Chance {
		if a.Kind == "player" {
			g.logf(kind, "You miss "+the(b)+".")
		} else {
			g.logf(kind, capitalize(the(a))+" "+w.verb+" "+the(b)+from+" but misses.")
		}
		return false
	}
	dmg := o.Min + g.rng.IntN(o.Max-o.Min+1)
	desc := capitalize(the(a)) + " " + verb(a, w.verbYou, w.verb) + " " + the(b) + from
	switch {
	case dmg > 0 && g.unharmed(b):
		g.logf(kind, desc+" but you are unharmed (god mode).")
	case dmg > 0:
		g.logf(kind, fmt.Sprintf("%s for %d %s.", desc, dmg, plural(dmg, "hit point", "hit points")))
	case w.poison > 0 && !g.unharmed(b):
		g.logf(kind, desc+".") // "You are poisoned!" follows: not "no damage" before it (the tester's cobra)
	default:
		g.logf(kind, desc+" but "+verb(a, "do", "does")+" no damage.")
	}
	g.hurt(b, dmg, WithArticle(a.Name), fmt.Sprintf("it %s you for %d", w.past, dmg), a.Kind == "player")
	if w.poison > 0 && b.Alive() && !g.unharmed(b) {
		g.addEffect(b, EffectPoison, w.poison)
		if b.Kind == "player" {
			g.logf(MsgStatus, "You are poisoned!")
		}
	}
	if a.AI == AIThief && b.Kind == "player" && b.Alive() && a.Alive() {
		g.steal(a)
	}
	return true
}

// Compass names the nearest of the eight points of the compass from p to
// q: "north", "south-east"; "" for q == p. A component counts when it is
// at least 0.4 of the other (tan 22.5° ≈ 0.414), so one west and five
// north is north. North is up the screen (y decreasing).
func Compass(p, q world.Pos) string {
	dx, dy := q.X-p.X, q.Y-p.Y
	ax, ay := max(dx, -dx), max(dy, -dy)
	if 5*ax < 2*ay {
		dx = 0
	}
	if 5*ay < 2*ax {
		dy = 0
	}
	dir := ""
	switch {
	case dy < 0:
		dir = "north"
	case dy > 0:
		dir = "south"
	}
	switch {
	case dx < 0 && dir != "":
		dir += "-west"
	case dx < 0:
		dir = "west"
	case dx > 0 && dir != "":
		dir += "-east"
	case dx > 0:
		dir = "east"
	}
	return dir
}

// hurt takes dmg HP from b; if that kills b, cause says what did it ("an
// orc", "poison", "a fireball"), how says how in a few words for the
// player's death ("it hit you for 4"; "" for nothing more), and byPlayer
// whether the kill is the player's.
func (g *Game) hurt(b *Actor, dmg int, cause, how string, byPlayer bool) {
	if !b.Alive() {
		return
	}
	b.Hidden, b.Asleep = false, false // a blow, a blast or a bolt gives a lurker away and wakes a sleeper
	if g.unharmed(b) {
		return
	}
	if dmg > 0 {
		g.endSleep(b) // a blow ends a sleeping potion's sleep (magic.go)
	}
	b.HP -= dmg
	if b.HP <= 0 {
		g.die(b, cause, how, byPlayer)
		return
	}
	if byPlayer && b.AI != AIHerbivore && b.AI != AINone {
		// Hurt from afar (a dart, a wand, a scroll), it knows where the
		// player is: it hunts them as an arrival does (wander.go), instead
		// of standing unaware (the testers' struck bandit and cave wolf).
		b.Hunting = true
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
	g.dropLoot(b)
	if byPlayer {
		g.s.Kills++
		g.s.Slain = countKill(g.s.Slain, b.Name)
		g.slain = append(g.slain, b.Kind) // for this turn's Result.Slain
		g.s.XPEarned += b.XP
		g.gainXP(b.XP)
	}
	b.Corpse = true
	b.Blocks = false
	b.AI = AINone
	b.Glyph = '%'
	b.Name = "remains of " + b.Name
}

// WithArticle puts "a" or "an" before name, by its first letter (a
// vowel takes "an"): "an oak wand", "a dart".
func WithArticle(name string) string {
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
