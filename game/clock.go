package game

// This file is the clock: the player's hunger, which
// food resets, and their slow regeneration, which hunger and poison stop.
// Resting heals, but every turn of it costs food: hunger is the pressure
// that stops a player from resting to full before every fight.

import "fmt"

// Hunger numbers, in nutrition (one is spent each turn that takes time, as
// NetHack spends one a move). The player starts with StartNutrition; a food
// ration restores RationNutrition, never above MaxNutrition. The state
// thresholds are NetHack's shape (Satiated above 1000, Hungry below 150,
// Weak below 50, Fainting below 0) stretched for grotto's shorter games: a
// careful bot's game is about 2,400 turns and a ration lies on most levels.
const (
	StartNutrition  = 1500 // nutrition at the start of a game (full)
	MaxNutrition    = 2000 // nutrition never rises above this
	RationNutrition = 800  // nutrition a food ration restores
	HungryBelow     = 300  // Hungry at this nutrition or less
	WeakBelow       = 100  // Weak at this or less: no regeneration, WeakPowerLoss power
	FaintingBelow   = 30   // Fainting at this or less (as Weak, and said louder)
	WeakPowerLoss   = 1    // power the player loses while Weak, Fainting or Starving
	StarveDamage    = 1    // HP a turn while Starving (nutrition 0)
)

// Hunger is how hungry the player is, from their nutrition. The status
// line shows every state but HungerFed.
type Hunger uint8

// The hunger states, fullest first (NetHack's Satiated, Hungry, Weak,
// Fainting; grotto's last one hurts instead of making the player faint).
const (
	HungerSatiated Hunger = iota // above StartNutrition: too full to eat a ration
	HungerFed                    // not hungry: shown as nothing
	HungerHungry                 // HungryBelow or less
	HungerWeak                   // WeakBelow or less: no regeneration, -WeakPowerLoss power
	HungerFainting               // FaintingBelow or less: as Weak
	HungerStarving               // 0: StarveDamage HP a turn until the player eats or dies
)

// HungerOf returns the hunger state of nutrition n.
func HungerOf(n int) Hunger {
	switch {
	case n > StartNutrition:
		return HungerSatiated
	case n <= 0:
		return HungerStarving
	case n <= FaintingBelow:
		return HungerFainting
	case n <= WeakBelow:
		return HungerWeak
	case n <= HungryBelow:
		return HungerHungry
	}
	return HungerFed
}

// String is how the status line names h: "Hungry", "Weak"; "" for HungerFed.
func (h Hunger) String() string {
	return [...]string{"Satiated", "", "Hungry", "Weak", "Fainting", "Starving"}[h]
}

// weak reports whether h costs power and stops regeneration.
func (h Hunger) weak() bool { return h >= HungerWeak }

// hungerMessages are what the turn the player's hunger gets worse says.
var hungerMessages = [...]string{
	HungerFed:      "You are no longer satiated.",
	HungerHungry:   "You are getting hungry.",
	HungerWeak:     "You feel weak from hunger.",
	HungerFainting: "You feel faint from hunger.",
	HungerStarving: "You are starving!",
}

// Nutrition returns the player's nutrition: StartNutrition at the start,
// one less each turn, RationNutrition more for each ration eaten.
func (g *Game) Nutrition() int { return StartNutrition - g.s.Hunger }

// Hunger returns the player's hunger state.
func (g *Game) Hunger() Hunger { return HungerOf(g.Nutrition()) }

// RegenEvery returns how many turns the player of character level takes to
// regain 1 HP by themselves: twice NetHack 3.4.3's period for levels below
// 10 (allmain.c: heal 1 when moves % ((MAXULEV+12)/(ulevel+2)+1) == 0,
// MAXULEV = 30), with no Constitution or encumbrance: 30 turns at level 1,
// 22 at level 2, 18 at 3, 16 at 4, 14 at 5. Doubled because grotto's
// monsters hit harder for the player's HP than NetHack's early ones: at
// NetHack's own rate the careful bot won 82% of its games, not 32%.
func RegenEvery(level int) int { return RegenFactor * (42/(max(1, level)+2) + 1) }

// RegenFactor is how many times slower than NetHack's the player
// regenerates (see RegenEvery); a balance number.
const RegenFactor = 2

// Regenerates reports whether the player regains HP now: alive, below
// their maximum, not poisoned, and not Weak or worse from hunger.
func (g *Game) Regenerates() bool {
	p := g.player()
	return p.Alive() && p.HP < p.MaxHP && !p.Has(EffectPoison) && !g.Hunger().weak()
}

// hungerPowerLoss is the power a's hunger takes from it in a fight:
// WeakPowerLoss for the player while Weak or worse, else 0.
func (g *Game) hungerPowerLoss(a *Actor) int {
	if a.Kind == "player" && g.Hunger().weak() {
		return WeakPowerLoss
	}
	return 0
}

// tickClock is the clock's part of a turn that took time, after the
// effects' tick: the player spends one nutrition (saying so when their
// hunger state changes), takes StarveDamage while Starving, and regains 1 HP
// on every turn that is a multiple of RegenEvery(level) when Regenerates.
func (g *Game) tickClock() {
	p := g.player()
	if !p.Alive() || g.s.Over {
		return
	}
	was := g.Hunger()
	if g.Nutrition() > 0 {
		g.s.Hunger++
	}
	if now := g.Hunger(); now != was {
		kind := MsgStatus
		if now.weak() {
			kind = MsgEnemyHit
		}
		g.logf(kind, hungerMessages[now])
	}
	if g.Hunger() == HungerStarving {
		g.hurt(p, StarveDamage, "hunger", "", false)
		if !p.Alive() {
			g.s.Cause = fmt.Sprintf("starved to death on depth %d", g.s.Depth)
			return
		}
	}
	if g.Regenerates() && g.s.Turn%RegenEvery(g.charLevel()) == 0 {
		p.HP++
	}
}

// eat is eating a food ration: RationNutrition more nutrition, up to
// MaxNutrition. It is refused while Satiated.
func (g *Game) eat() error {
	if g.Hunger() == HungerSatiated {
		return &Impossible{"You are too full to eat."}
	}
	g.s.Hunger = max(g.s.Hunger-RationNutrition, StartNutrition-MaxNutrition)
	msg := "You eat the food ration. That hit the spot."
	if g.Hunger() == HungerSatiated {
		msg = "You eat the food ration. You feel satiated."
	}
	g.logf(MsgHeal, msg)
	return nil
}
