package bot

// This file is how bots grow (python-tcod parts 11 and 13): they
// spend every level-up at once, and wear the best weapon and armour they
// carry.

import "github.com/grotto-game/grotto/game"

// ChooseLevelUp spends a waiting level-up: +20 max HP while max HP is
// below 60 (more HP means more potions' worth of fighting), then power
// and defense in turn. The game takes no other command until it is spent,
// so every policy has this rule first.
func ChooseLevelUp(v *View) (game.Command, bool) {
	gr := v.g.Growth()
	if !gr.Pending {
		return game.Command{}, false
	}
	p := v.Player()
	switch {
	case p.MaxHP < 60:
		return game.LevelUp(game.StatHP), true
	case gr.Level%2 == 0:
		return game.LevelUp(game.StatPower), true
	default:
		return game.LevelUp(game.StatDefense), true
	}
}

// wearIfBetter puts on the item in slot when it is not worn and gives more
// than what is worn in its slot now (nothing worn gives 0).
func wearIfBetter(v *View, slot int) (game.Command, bool) {
	it := v.Pack()[slot]
	if it.Worn {
		return game.Command{}, false
	}
	where, pow, def, ok := v.g.EquipOf(it.Kind)
	if !ok {
		return game.Command{}, false
	}
	if worn, ok := v.g.Worn(where); ok {
		_, wp, wd, _ := v.g.EquipOf(worn.Kind)
		if pow+def <= wp+wd {
			return game.Command{}, false
		}
	}
	return game.Use(slot, v.Player().Pos), true
}
