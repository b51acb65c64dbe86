package bot

// This file is how a bot decides: a policy is an ordered list of rules, the
// first that applies gives the command (a priority list, as in a
// subsumption architecture). The five policies of the balance table (docs/balance.md) are built
// here from the same rules, so they differ only where the table says.

import (
	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// Rule proposes a command for the view, or ok = false to pass to the next
// rule. Rules are pure functions of the view: a policy holds no per-game
// state, so one policy value serves many games at once.
type Rule func(v *View) (c game.Command, ok bool)

// Policy is a named way to play: its rules in order of priority. When no
// rule applies the player waits a turn.
type Policy struct {
	Name  string          // short, used on the command line and in the report: "careful"
	Doc   string          // one line for the report
	Uses  []game.ItemKind // the item kinds its rules may use (nil: none)
	Rules []Rule
}

// Decide returns the command of the first rule that applies, or Wait.
func (p Policy) Decide(v *View) game.Command {
	for _, r := range p.Rules {
		if c, ok := r(v); ok {
			return c
		}
	}
	return game.Wait()
}

// AllItems is every item kind the game knows: a policy that "uses every item".
func AllItems() []game.ItemKind { return game.ItemKinds() }

// except returns kinds without drop.
func except(kinds []game.ItemKind, drop ...game.ItemKind) []game.ItemKind {
	var out []game.ItemKind
	for _, k := range kinds {
		keep := true
		for _, d := range drop {
			keep = keep && k != d
		}
		if keep {
			out = append(out, k)
		}
	}
	return out
}

// Careful explores every level to its end, picks up everything, fights what
// it meets and uses items as the table ItemUses says, then takes the stairs.
// uses lists the item kinds it may use (ItemUses entries of other kinds are
// skipped); ChooseLevelUp goes first, then the extra rules.
func Careful(name string, uses []game.ItemKind, extra ...Rule) Policy {
	rules := append([]Rule{ChooseLevelUp}, extra...)
	rules = append(rules, UseItems(uses), learn(uses, true), FightAdjacent, PickUpHere,
		ChaseFoes(10), FetchItems(noLimit), Explore, TakeStairs)
	return Policy{Name: name, Uses: uses, Rules: rules}
}

// Diver goes for the stairs as soon as it has seen them, exploring only to
// find them; it fights what stands next to it, picks up what lies within a
// few steps, and uses items as Careful does.
func Diver(name string, uses []game.ItemKind, extra ...Rule) Policy {
	rules := append([]Rule{ChooseLevelUp}, extra...)
	rules = append(rules, UseItems(uses), learn(uses, true), FightAdjacent, PickUpHere,
		FetchItems(3), TakeStairs, Explore)
	return Policy{Name: name, Uses: uses, Rules: rules}
}

// learn is LearnByUse for a policy that uses the kinds in uses, when that
// is every kind: a policy kept to some kinds (healer-only, no-heal) cannot
// tell an unknown item's kind, so it never tries one (it uses a kind once
// an identify scroll it may read names it; healer-only then learns nothing).
func learn(uses []game.ItemKind, drink bool) Rule {
	if len(uses) < len(game.ItemKinds()) {
		return func(*View) (game.Command, bool) { return game.Command{}, false }
	}
	return LearnByUse(drink)
}

// CarefulNoDrink is Careful that never drinks an unknown potion (one
// side of the identification comparison): it reads unknown scrolls and zaps unknown wands as Careful does,
// and drinks a potion only once an identify scroll has named it.
func CarefulNoDrink(name string, uses []game.ItemKind) Policy {
	p := Careful(name, uses)
	p.Rules[2] = learn(uses, false) // ChooseLevelUp, UseItems, then learn: see Careful
	return p
}

// Policies returns the five policies of the balance table, in its order,
// then the two the report's comparisons measure (careful-no-drink, rester).
func Policies() []Policy {
	ps := []Policy{
		Careful("careful", AllItems()),
		Diver("diver", AllItems()),
		Careful("healer-only", []game.ItemKind{game.HealthPotion, game.FoodRation}),
		Careful("no-heal", except(AllItems(), game.HealthPotion)),
		Careful("no-items", []game.ItemKind{game.FoodRation}),
		CarefulNoDrink("careful-no-drink", AllItems()),
		Careful("rester", AllItems(), RestToFull),
	}
	docs := []string{
		"explores each level, fights, uses every item",
		"takes the stairs once seen, same item use",
		"explores and fights, drinks health potions only (and eats)",
		"explores and fights, uses every item but health potions",
		"explores and fights, uses no items but food",
		"as careful, but never drinks an unknown potion",
		"careful, but rests to full HP whenever no monster is in view (what resting costs)",
	}
	for i := range ps {
		ps[i].Doc = docs[i]
	}
	return ps
}

// PolicyByName returns the policy of Policies named name.
func PolicyByName(name string) (Policy, bool) {
	for _, p := range Policies() {
		if p.Name == name {
			return p, true
		}
	}
	return Policy{}, false
}

// RestToFull waits while the player is hurt, no hostile monster is in
// view and waiting heals (game.Regenerates: not poisoned, not Weak from
// hunger), unless they are Hungry (then the next rules eat, or play on):
// resting to full before every fight and every descent.
func RestToFull(v *View) (game.Command, bool) {
	if len(v.Hostiles()) > 0 || v.Hunger() >= game.HungerHungry || !v.Regenerates() {
		return game.Command{}, false
	}
	return game.Wait(), true
}

// step returns the move command for a step (dx, dy).
func step(dx, dy int) game.Command { return game.Move(dx, dy) }

// FightAdjacent attacks the weakest hostile monster next to the player.
func FightAdjacent(v *View) (game.Command, bool) {
	p := v.Player()
	var best *game.Actor
	for _, m := range v.Hostiles() {
		if m.Pos.Chebyshev(p.Pos) == 1 && (best == nil || m.HP < best.HP) {
			best = &m
		}
	}
	if best == nil {
		return game.Command{}, false
	}
	return step(best.Pos.X-p.Pos.X, best.Pos.Y-p.Pos.Y), true
}

// PickUpHere picks up an item the player stands on, while the pack has room.
func PickUpHere(v *View) (game.Command, bool) {
	if len(v.Pack()) >= game.InventorySize {
		return game.Command{}, false
	}
	at := v.Player().Pos
	for _, it := range v.Items() {
		if it.Pos == at {
			return game.PickUp(), true
		}
	}
	return game.Command{}, false
}

// ChaseFoes walks towards the nearest hostile monster seen on this level
// (in sight, or where last seen) within limit steps: fights are taken, not
// waited for.
func ChaseFoes(limit int) Rule {
	return func(v *View) (game.Command, bool) {
		hs := v.Foes()
		if len(hs) == 0 {
			return game.Command{}, false
		}
		dx, dy, _, ok := v.Route(func(q world.Pos) bool {
			for _, m := range hs {
				if m.Pos == q {
					return true
				}
			}
			return false
		}, limit)
		if !ok || dx == 0 && dy == 0 {
			return game.Command{}, false
		}
		return step(dx, dy), true
	}
}

// FetchItems walks to the nearest remembered item within limit steps, while
// the pack has room.
func FetchItems(limit int) Rule {
	return func(v *View) (game.Command, bool) {
		items := v.Items()
		if len(items) == 0 || len(v.Pack()) >= game.InventorySize {
			return game.Command{}, false
		}
		dx, dy, _, ok := v.Route(func(q world.Pos) bool {
			for _, it := range items {
				if it.Pos == q {
					return true
				}
			}
			return false
		}, limit)
		if !ok || dx == 0 && dy == 0 {
			return game.Command{}, false
		}
		return step(dx, dy), true
	}
}

// Explore walks to the nearest frontier (a known tile next to an unknown
// one).
func Explore(v *View) (game.Command, bool) {
	dx, dy, _, ok := v.Route(v.Frontier, noLimit)
	if !ok || dx == 0 && dy == 0 {
		return game.Command{}, false
	}
	return step(dx, dy), true
}

// TakeStairs walks to the nearest known down stairs and takes them.
func TakeStairs(v *View) (game.Command, bool) {
	dx, dy, steps, ok := v.Route(func(q world.Pos) bool { return v.Tile(q) == world.DownStairs }, noLimit)
	switch {
	case !ok:
		return game.Command{}, false
	case steps == 0:
		return game.Descend(), true
	}
	return step(dx, dy), true
}
