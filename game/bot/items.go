package bot

// This file is how bots use items: one entry per item kind saying when a
// sensible player uses it and how (the bot's counterpart of game/items.go).
// A new item (a sword to wield, armour to wear) is one more entry here.

import (
	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// ItemUse is when and how a bot uses one kind of item: Use gets the view and
// the pack slot holding such an item and returns the command, or ok = false
// when now is not the time.
type ItemUse struct {
	Kind game.ItemKind
	Use  func(v *View, slot int) (c game.Command, ok bool)
}

// ItemUses is the table, in priority order: healing first, then what kills
// (lightning, fireball), then what protects (confusion, warrior's potion),
// then poison.
var ItemUses = []ItemUse{
	{game.HealthPotion, drinkWhenLow},
	{game.LightningScroll, lightning},
	{game.FireballScroll, fireball},
	{game.ConfusionScroll, confuse},
	{game.WarriorPotion, warriorBeforeFight},
	{game.PoisonPotion, throwPoison},
	{game.Sword, wearIfBetter},
	{game.Dagger, wearIfBetter},
	{game.ChainMail, wearIfBetter},
	{game.LeatherArmour, wearIfBetter},
	// the items to learn, the newer gear and food
	{game.VigourPotion, drinkAtOnce},
	{game.StrikingWand, zapStrong},
	{game.SlowingWand, zapSlowing},
	{game.TeleportScroll, teleportWhenLosing},
	{game.HastePotion, hasteBeforeFight},
	{game.SleepingPotion, throwSleeping},
	{game.Dart, throwDart},
	{game.IdentifyScroll, identifyWhenUnknown},
	{game.MappingScroll, readWhenCalm},
	{game.TelepathyPotion, readWhenCalm},
	{game.EnchantScroll, enchantWhenArmed},
	{game.SummoningScroll, never},
	{game.WarAxe, wearIfBetter},
	{game.Rapier, wearIfBetter},
	{game.PlateMail, wearIfBetter},
	{game.ElvenCloak, wearIfBetter},
	{game.FoodRation, eatWhenHungry},
}

// UseItems returns the rule that tries ItemUses in order for the kinds in
// uses, each with the first pack slot holding that kind. Only kinds the
// player knows are matched: the bot reads an unknown item as
// the player sees it, by its appearance; LearnByUse is what tries those.
func UseItems(uses []game.ItemKind) Rule {
	return func(v *View) (game.Command, bool) {
		if len(uses) == 0 {
			return game.Command{}, false
		}
		pack := v.Pack()
		for _, u := range ItemUses {
			if !contains(uses, u.Kind) {
				continue
			}
			for slot, it := range pack {
				if it.Kind == u.Kind && !it.Worn && v.g.Identified(it.Kind) {
					if c, ok := u.Use(v, slot); ok {
						return c, true
					}
					break
				}
			}
		}
		return game.Command{}, false
	}
}

func contains(ks []game.ItemKind, k game.ItemKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// threat returns the HP per turn the hostile monsters within reach tiles
// can take from the player (by game.Damage).
func threat(v *View, reach int) int {
	p := v.Player()
	t := 0
	for _, m := range v.Hostiles() {
		if m.Pos.Chebyshev(p.Pos) <= reach {
			t += game.Damage(m.Power, p.Defense)
		}
	}
	return t
}

// hitsToKill returns how many of the player's blows m takes.
func hitsToKill(p, m game.Actor) int {
	d := game.Damage(p.Power, m.Defense)
	if d == 0 {
		return 1 << 20
	}
	return (m.HP + d - 1) / d
}

// strong reports whether m is worth a scroll: it hits the player for 3 or
// more, or takes 3 or more blows to kill.
func strong(p, m game.Actor) bool {
	return game.Damage(m.Power, p.Defense) >= 3 || hitsToKill(p, m) >= 3
}

// drinkWhenLow drinks a health potion at a third of max HP or below, or at
// half or below (or below twice the damage it may take next turn) when a
// hostile monster is within two tiles.
func drinkWhenLow(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	if p.HP >= p.MaxHP {
		return game.Command{}, false
	}
	t := threat(v, 2)
	if 3*p.HP <= p.MaxHP || t > 0 && (2*p.HP <= p.MaxHP || p.HP <= 2*t) {
		return game.Use(slot, p.Pos), true
	}
	return game.Command{}, false
}

// lightning reads a lightning scroll when the closest monster in range
// (which the bolt strikes) is hostile and takes two or more blows.
func lightning(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	var closest *game.Actor
	best := (game.LightningRange + 1) * (game.LightningRange + 1)
	for _, m := range v.Monsters() {
		dx, dy := m.Pos.X-p.Pos.X, m.Pos.Y-p.Pos.Y
		if d := dx*dx + dy*dy; d < best {
			closest, best = &m, d
		}
	}
	if closest == nil || !Hostile(*closest) || hitsToKill(p, *closest) < 2 {
		return game.Command{}, false
	}
	return game.Use(slot, p.Pos), true
}

// fireball reads a fireball scroll at the tile whose blast hits the most
// hostile monsters in sight without reaching the player, when that is two
// or more, or one strong one.
func fireball(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	hs := v.Hostiles()
	r := game.FireballRadius
	bestN, bestStrong := 0, false
	var at world.Pos
	for _, c := range hs {
		if d2(c.Pos, p.Pos) <= r*r {
			continue
		}
		n, s := 0, false
		for _, m := range hs {
			if d2(m.Pos, c.Pos) <= r*r {
				n++
				s = s || strong(p, m)
			}
		}
		if n > bestN || n == bestN && s && !bestStrong {
			bestN, bestStrong, at = n, s, c.Pos
		}
	}
	if bestN >= 2 || bestN == 1 && bestStrong {
		return game.Use(slot, at), true
	}
	return game.Command{}, false
}

func d2(a, b world.Pos) int {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx*dx + dy*dy
}

// confuse reads a confusion scroll at the nearest strong hostile monster in
// sight that is not confused already.
func confuse(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	var best *game.Actor
	for _, m := range v.Hostiles() {
		if strong(p, m) && !m.Has(game.EffectConfusion) && (best == nil || m.Pos.Chebyshev(p.Pos) < best.Pos.Chebyshev(p.Pos)) {
			best = &m
		}
	}
	if best == nil {
		return game.Command{}, false
	}
	return game.Use(slot, best.Pos), true
}

// warriorBeforeFight drinks a warrior's potion when a strong hostile
// monster, or two hostile ones, are within 3 tiles and the player is not
// strong already.
func warriorBeforeFight(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	if p.Has(game.EffectWarrior) {
		return game.Command{}, false
	}
	n, s := 0, false
	for _, m := range v.Hostiles() {
		if m.Pos.Chebyshev(p.Pos) <= 3 {
			n++
			s = s || strong(p, m)
		}
	}
	if n >= 2 || s {
		return game.Use(slot, p.Pos), true
	}
	return game.Command{}, false
}

// throwPoison throws a poison potion at the nearest hostile monster in
// throwing range that takes two or more blows, is not poisoned yet, and
// stands first on the line of flight (no wall or other actor in sight
// before it).
func throwPoison(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	var best *game.Actor
	for _, m := range v.Hostiles() {
		if m.Has(game.EffectPoison) || hitsToKill(p, m) < 2 || m.Pos.Chebyshev(p.Pos) > game.ThrowRange || !clearThrow(v, p.Pos, m.Pos) {
			continue
		}
		if best == nil || m.Pos.Chebyshev(p.Pos) < best.Pos.Chebyshev(p.Pos) {
			best = &m
		}
	}
	if best == nil {
		return game.Command{}, false
	}
	return game.Throw(slot, best.Pos), true
}

// clearThrow reports whether a throw from a to b flies over known walkable
// tiles with no monster in sight before b.
func clearThrow(v *View, a, b world.Pos) bool {
	ms := v.Monsters()
	for _, q := range world.Line(a, b) {
		if q == b {
			return true
		}
		if !v.walkable(q) {
			return false
		}
		for _, m := range ms {
			if m.Pos == q {
				return false
			}
		}
	}
	return true
}

// eatWhenHungry eats a food ration once Hungry, when no hostile monster is
// within two tiles; once Weak or worse, at once.
func eatWhenHungry(v *View, slot int) (game.Command, bool) {
	h := v.Hunger()
	if h < game.HungerHungry || h < game.HungerWeak && threat(v, 2) > 0 {
		return game.Command{}, false
	}
	return game.Use(slot, v.Player().Pos), true
}
