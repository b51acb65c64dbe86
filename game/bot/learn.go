package bot

// This file is how bots meet unidentified items: the
// potions, scrolls and wands whose appearance is all the player knows. A
// bot sees what the player sees: it asks the game only whether a kind is
// unidentified (which the player can tell from the name it shows), never
// what it is. Whether to drink unknown potions is the decision the
// balance report measures: Careful bots drink them at full health to
// learn them, the "careful-no-drink" policy never does.

import "github.com/grotto-game/grotto/game"

// LearnByUse returns the rule that tries unknown items when it is safe to:
// at full health with no hostile monster in sight it reads the first
// unknown scroll, and drinks the first unknown potion when drink is set;
// an unknown wand is zapped at the nearest hostile monster in sight (the
// same in both, so the policies differ in potions alone). With drink set,
// a player as low as drinkWhenLow would drink a health potion, and who
// knows of none in the pack, gambles on an unknown potion too.
func LearnByUse(drink bool) Rule {
	return func(v *View) (game.Command, bool) {
		p := v.Player()
		hostiles := v.Hostiles()
		if drink && !knownHealing(v) {
			if _, low := drinkWhenLow(v, 0); low {
				for slot, it := range v.Pack() {
					if it.Kind.Potion() && v.g.Unidentified(it.Kind) {
						return game.Use(slot, p.Pos), true
					}
				}
			}
		}
		for slot, it := range v.Pack() {
			if !v.g.Unidentified(it.Kind) {
				continue
			}
			switch {
			case it.Kind.Wand():
				if it.Charges > 0 && len(hostiles) > 0 {
					return game.Use(slot, nearest(p, hostiles).Pos), true
				}
			case len(hostiles) > 0 || p.HP < p.MaxHP:
			case it.Kind.Scroll():
				return game.Use(slot, p.Pos), true
			case it.Kind.Potion() && drink:
				return game.Use(slot, p.Pos), true
			}
		}
		return game.Command{}, false
	}
}

// knownHealing reports whether the pack holds a health potion the player
// knows as one.
func knownHealing(v *View) bool {
	for _, it := range v.Pack() {
		if it.Kind == game.HealthPotion && v.g.Identified(it.Kind) {
			return true
		}
	}
	return false
}

// nearest returns the monster of ms closest to p (the first among equals);
// ms is not empty.
func nearest(p game.Actor, ms []game.Actor) game.Actor {
	best := ms[0]
	for _, m := range ms[1:] {
		if m.Pos.Chebyshev(p.Pos) < best.Pos.Chebyshev(p.Pos) {
			best = m
		}
	}
	return best
}

// never is the use of an item a sensible player keeps unused (the
// summoning scroll, once known).
func never(*View, int) (game.Command, bool) { return game.Command{}, false }

// drinkAtOnce drinks the potion now (vigour: a lasting gain).
func drinkAtOnce(v *View, slot int) (game.Command, bool) {
	return game.Use(slot, v.Player().Pos), true
}

// readWhenCalm uses the item when no hostile monster is in sight (magic
// mapping, telepathy: they help most before the level is explored).
func readWhenCalm(v *View, slot int) (game.Command, bool) {
	if len(v.Hostiles()) > 0 {
		return game.Command{}, false
	}
	return game.Use(slot, v.Player().Pos), true
}

// identifyWhenUnknown reads an identify scroll when the pack holds a kind
// the player does not know.
func identifyWhenUnknown(v *View, slot int) (game.Command, bool) {
	for _, it := range v.Pack() {
		if v.g.Unidentified(it.Kind) {
			return game.Use(slot, v.Player().Pos), true
		}
	}
	return game.Command{}, false
}

// enchantWhenArmed reads an enchant scroll while a weapon or armour is worn.
func enchantWhenArmed(v *View, slot int) (game.Command, bool) {
	if _, ok := v.g.Worn(game.SlotWeapon); ok {
		return game.Use(slot, v.Player().Pos), true
	}
	if _, ok := v.g.Worn(game.SlotArmour); ok {
		return game.Use(slot, v.Player().Pos), true
	}
	return game.Command{}, false
}

// strongInSight returns the nearest strong hostile monster in sight that
// ok accepts, or false.
func strongInSight(v *View, ok func(game.Actor) bool) (game.Actor, bool) {
	p := v.Player()
	var best *game.Actor
	for _, m := range v.Hostiles() {
		if strong(p, m) && ok(m) && (best == nil || m.Pos.Chebyshev(p.Pos) < best.Pos.Chebyshev(p.Pos)) {
			best = &m
		}
	}
	if best == nil {
		return game.Actor{}, false
	}
	return *best, true
}

// zapStrong zaps a striking wand with charges at the nearest strong
// hostile monster in sight.
func zapStrong(v *View, slot int) (game.Command, bool) {
	if v.Pack()[slot].Charges == 0 {
		return game.Command{}, false
	}
	m, ok := strongInSight(v, func(game.Actor) bool { return true })
	if !ok {
		return game.Command{}, false
	}
	return game.Use(slot, m.Pos), true
}

// zapSlowing zaps a slowing wand at the nearest strong hostile monster in
// sight that is not slowed yet.
func zapSlowing(v *View, slot int) (game.Command, bool) {
	if v.Pack()[slot].Charges == 0 {
		return game.Command{}, false
	}
	m, ok := strongInSight(v, func(m game.Actor) bool { return !m.Has(game.EffectSlow) })
	if !ok {
		return game.Command{}, false
	}
	return game.Use(slot, m.Pos), true
}

// teleportWhenLosing reads a teleport scroll at a third of max HP or below
// with a hostile monster next to the player.
func teleportWhenLosing(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	if 3*p.HP > p.MaxHP || threat(v, 1) == 0 {
		return game.Command{}, false
	}
	return game.Use(slot, p.Pos), true
}

// hasteBeforeFight drinks a haste potion when the warrior's potion would
// be drunk: a strong hostile monster or two hostile ones within 3 tiles.
func hasteBeforeFight(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	if p.Has(game.EffectHaste) {
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

// throwSleeping throws a sleeping potion at the nearest strong hostile
// monster in throwing range on a clear line, not asleep yet.
func throwSleeping(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	m, ok := strongInSight(v, func(m game.Actor) bool {
		return !m.Has(game.EffectSleep) && m.Pos.Chebyshev(p.Pos) <= game.ThrowRange && clearThrow(v, p.Pos, m.Pos)
	})
	if !ok {
		return game.Command{}, false
	}
	return game.Throw(slot, m.Pos), true
}

// throwDart throws a dart at the nearest hostile monster two or more tiles
// away in throwing range on a clear line (next to it, the bot strikes).
func throwDart(v *View, slot int) (game.Command, bool) {
	p := v.Player()
	var best *game.Actor
	for _, m := range v.Hostiles() {
		d := m.Pos.Chebyshev(p.Pos)
		if d < 2 || d > game.ThrowRange || !clearThrow(v, p.Pos, m.Pos) {
			continue
		}
		if best == nil || d < best.Pos.Chebyshev(p.Pos) {
			best = &m
		}
	}
	if best == nil {
		return game.Command{}, false
	}
	return game.Throw(slot, best.Pos), true
}
