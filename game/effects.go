package game

import "fmt"

// EffectKind names a timed effect. Its value is saved and shown in the status
// line (capitalised), so existing values never change meaning.
type EffectKind string

// The timed effects (Java roguelike tutorial, part 18: start, per-turn update,
// end).
const (
	EffectPoison    EffectKind = "poisoned" // PoisonDamage HP each turn
	EffectWarrior   EffectKind = "strong"   // +WarriorBonus power and defense while it lasts
	EffectConfusion EffectKind = "confused" // the actor stumbles in random directions
)

// Effect is a timed effect on an actor.
type Effect struct {
	Kind      EffectKind
	TurnsLeft int // turns still to run, counting the current one
}

// Has reports whether a is under effect k.
func (a *Actor) Has(k EffectKind) bool {
	for _, e := range a.Effects {
		if e.Kind == k {
			return true
		}
	}
	return false
}

// addEffect starts effect k on a for turns turns. The same effect again only
// renews its duration: bonuses never stack.
func (g *Game) addEffect(a *Actor, k EffectKind, turns int) {
	for i := range a.Effects {
		if a.Effects[i].Kind == k {
			a.Effects[i].TurnsLeft = max(a.Effects[i].TurnsLeft, turns)
			return
		}
	}
	if k == EffectWarrior {
		a.Power += WarriorBonus
		a.Defense += WarriorBonus
	}
	a.Effects = append(a.Effects, Effect{Kind: k, TurnsLeft: turns})
}

// tickEffects runs one turn of every effect on every living actor, in actor
// order, after all actors have acted: poison hurts, every effect counts down,
// and those that reach zero end (undoing what they started).
func (g *Game) tickEffects() {
	for i := range g.s.Actors {
		a := &g.s.Actors[i]
		if !a.Alive() || len(a.Effects) == 0 {
			continue
		}
		if a.Has(EffectPoison) {
			g.hurt(a, PoisonDamage, "poison", fmt.Sprintf("%d HP a turn", PoisonDamage), a.Kind != "player")
			if !a.Alive() {
				continue
			}
		}
		kept := a.Effects[:0]
		var ended []EffectKind
		for _, e := range a.Effects {
			if e.TurnsLeft--; e.TurnsLeft > 0 {
				kept = append(kept, e)
			} else {
				ended = append(ended, e.Kind)
			}
		}
		a.Effects = kept
		for _, k := range ended {
			g.endEffect(a, k)
		}
	}
}

// undoEffect takes back what effect k changed in a's stats, silently.
func undoEffect(a *Actor, k EffectKind) {
	if k == EffectWarrior {
		a.Power -= WarriorBonus
		a.Defense -= WarriorBonus
	}
}

// endEffect undoes what effect k started on a and says so.
func (g *Game) endEffect(a *Actor, k EffectKind) {
	player := a.Kind == "player"
	undoEffect(a, k)
	switch k {
	case EffectWarrior:
		if player {
			g.logf(MsgStatus, "You feel less strong.")
		} else {
			g.logf(MsgStatus, fmt.Sprintf("The %s looks less strong.", a.Name))
		}
	case EffectPoison:
		if player {
			g.logf(MsgStatus, "You feel better.")
		}
	case EffectConfusion:
		if player {
			g.logf(MsgStatus, "You are no longer confused.")
		} else {
			g.logf(MsgStatus, fmt.Sprintf("The %s is no longer confused.", a.Name))
		}
	case EffectHaste: // a tester could not tell when haste ended
		g.logf(MsgStatus, "You feel yourself slow down.")
	case EffectTelepathy:
		g.logf(MsgStatus, "Your mind closes: you no longer sense the monsters.")
	case EffectSlow:
		if g.visible(a.Pos) {
			g.logf(MsgStatus, fmt.Sprintf("The %s speeds up again.", a.Name))
		}
	}
}
