package game

// This file is equipment (python-tcod tutorial part 13): a weapon slot and an
// armour slot, one worn item in each, whose bonuses add to the player's power
// and defense in every fight. Which kinds are equipment is the item rules
// table (items.go, wear); the slot and bonuses of each are data (items.json,
// "equip"). A worn item is marked Worn in the pack.

import (
	"fmt"
	"strings"

	"github.com/grotto-game/grotto/game/content"
)

// Slot names where an item is worn: content.SlotWeapon or content.SlotArmour.
type Slot string

// The equipment slots.
const (
	SlotWeapon Slot = content.SlotWeapon
	SlotArmour Slot = content.SlotArmour
)

// equipOf returns what wearing an item of kind k gives, or nil for an item
// that is not worn (or that the data does not describe).
func (g *Game) equipOf(k ItemKind) *content.Equip {
	if !k.Wearable() {
		return nil
	}
	it, ok := g.data.Item(string(k))
	if !ok {
		return nil
	}
	return it.Equip
}

// EquipOf returns the slot and the power and defense bonuses of an item of
// kind k, from the game's data; ok is false for items that are not worn.
func (g *Game) EquipOf(k ItemKind) (slot Slot, power, defense int, ok bool) {
	e := g.equipOf(k)
	if e == nil {
		return "", 0, 0, false
	}
	return Slot(e.Slot), e.Power, e.Defense, true
}

// GearStats says in a few words what wearing it gives, enchantment
// included: "atk +6, hit -20%", "def +5, dodge -10%, noise +3" (attack or
// defense, then the trade-offs: the chance to hit in %, the chance to be
// missed in %, how much further monsters notice the wearer in tiles); ""
// for an item that is not worn.
func (g *Game) GearStats(it Item) string {
	e := g.equipOf(it.Kind)
	if e == nil {
		return ""
	}
	var parts []string
	if Slot(e.Slot) == SlotWeapon {
		parts = append(parts, fmt.Sprintf("atk %+d", e.Power+it.Enchant))
		if e.Defense != 0 {
			parts = append(parts, fmt.Sprintf("def %+d", e.Defense))
		}
	} else {
		if e.Power != 0 {
			parts = append(parts, fmt.Sprintf("atk %+d", e.Power))
		}
		parts = append(parts, fmt.Sprintf("def %+d", e.Defense+it.Enchant))
	}
	for _, o := range []struct {
		n      int
		format string
	}{{e.Accuracy, "hit %+d%%"}, {e.Evasion, "dodge %+d%%"}, {e.Noise, "noise %+d"}} {
		if o.n != 0 {
			parts = append(parts, fmt.Sprintf(o.format, o.n))
		}
	}
	return strings.Join(parts, ", ")
}

// wornIn returns the pack slot of the item worn in slot s, or -1.
func (g *Game) wornIn(s Slot) int {
	for i, it := range g.s.Inventory {
		if e := g.equipOf(it.Kind); it.Worn && e != nil && Slot(e.Slot) == s {
			return i
		}
	}
	return -1
}

// Worn returns the item worn in slot s and true, or false when it is empty.
func (g *Game) Worn(s Slot) (Item, bool) {
	if i := g.wornIn(s); i >= 0 {
		return g.s.Inventory[i], true
	}
	return Item{}, false
}

// bonus returns the power and defense a's equipment adds: the player's worn
// items; monsters wear nothing.
func (g *Game) bonus(a *Actor) (power, defense int) {
	if a.Kind != "player" {
		return 0, 0
	}
	for _, it := range g.s.Inventory {
		if e := g.equipOf(it.Kind); it.Worn && e != nil {
			power += e.Power
			defense += e.Defense
			if Slot(e.Slot) == SlotWeapon { // enchant scrolls (magic.go)
				power += it.Enchant
			} else {
				defense += it.Enchant
			}
		}
	}
	return power, defense
}

// power returns a's attack in a fight: its own power (level-ups and timed
// effects included) plus its equipment's, less what hunger takes (clock.go).
func (g *Game) power(a *Actor) int {
	p, _ := g.bonus(a)
	return a.Power + p - g.hungerPowerLoss(a)
}

// defense returns a's defense in a fight, equipment included.
func (g *Game) defense(a *Actor) int {
	_, d := g.bonus(a)
	return a.Defense + d
}

// PlayerPower returns the power the player fights with, in HP before the
// target's defense: base, level-ups, timed effects and equipment.
func (g *Game) PlayerPower() int { return g.power(g.player()) }

// PlayerDefense returns the defense the player fights with, equipment
// included.
func (g *Game) PlayerDefense() int { return g.defense(g.player()) }

// PlayerOwn returns the player's own power and defense: what the start and
// level-ups made them, without equipment, timed effects (a warrior's
// potion) or hunger. A level-up's Strength and Agility raise these.
func (g *Game) PlayerOwn() (power, defense int) {
	p := g.player()
	power, defense = p.Power, p.Defense
	if p.Has(EffectWarrior) {
		power, defense = power-WarriorBonus, defense-WarriorBonus
	}
	return power, defense
}

// toggleWear puts on pack slot i, or takes it off if it is worn (python-tcod
// part 13, toggle_equip): putting on a weapon while another is worn takes
// the other off first, and the same for armour. It takes a turn.
func (g *Game) toggleWear(i int) error {
	it := &g.s.Inventory[i]
	e := g.equipOf(it.Kind)
	if e == nil {
		return &Impossible{"You cannot wear that."}
	}
	if it.Worn {
		g.takeOff(i)
		return nil
	}
	if j := g.wornIn(Slot(e.Slot)); j >= 0 {
		g.takeOff(j)
	}
	it.Worn = true
	g.restack(i)
	g.logf(MsgInfo, fmt.Sprintf("You equip the %s.", g.ItemName(*it)))
	return nil
}

// takeOff takes off pack slot i if it is worn, saying so.
func (g *Game) takeOff(i int) {
	if it := &g.s.Inventory[i]; it.Worn {
		it.Worn = false
		g.restack(i)
		g.logf(MsgInfo, fmt.Sprintf("You remove the %s.", g.ItemName(*it)))
	}
}

// checkWorn refuses a decoded pack that wears two items in one slot, or an
// item the data gives no slot.
func (g *Game) checkWorn() error {
	seen := map[Slot]bool{}
	for _, it := range g.s.Inventory {
		if !it.Worn {
			continue
		}
		e := g.equipOf(it.Kind)
		if e == nil {
			return fmt.Errorf("%s worn, but the data gives it no slot", it.Kind)
		}
		if seen[Slot(e.Slot)] {
			return fmt.Errorf("two items worn in the %s slot", e.Slot)
		}
		seen[Slot(e.Slot)] = true
	}
	return nil
}
