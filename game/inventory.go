package game

// This file is what the player does with items: pick up, drop, use and
// throw. What each kind of item does is its rule in items.go.

import (
	"fmt"

	"github.com/grotto-game/grotto/game/world"
)

// itemsAt returns the indexes of the floor items at p, oldest first.
func (g *Game) itemsAt(p world.Pos) []int {
	var out []int
	for i, it := range g.s.Items {
		if it.Pos == p {
			out = append(out, i)
		}
	}
	return out
}

// pickUp moves the newest item under the player into the inventory.
func (g *Game) pickUp() error {
	here := g.itemsAt(g.player().Pos)
	if len(here) == 0 {
		return &Impossible{"There is nothing here to pick up."}
	}
	if len(g.s.Inventory) >= InventorySize {
		return &Impossible{"Your inventory is full."}
	}
	i := here[len(here)-1]
	it := g.s.Items[i]
	g.s.Items = append(g.s.Items[:i], g.s.Items[i+1:]...)
	g.addToPack(it)
	g.logf(MsgInfo, "You picked up the "+g.ItemName(it)+"!")
	g.takeOffering(it.Pos, it)
	return nil
}

// takeFromInventory removes and returns inventory slot i, taking it off
// first if it is worn (python-tcod part 13: dropping equipment unequips it).
// The item leaves its letter behind; no other item's letter changes.
func (g *Game) takeFromInventory(i int) Item {
	g.takeOff(i)
	it := g.s.Inventory[i]
	g.s.Inventory = append(g.s.Inventory[:i], g.s.Inventory[i+1:]...)
	it.Letter = 0
	return it
}

func (g *Game) checkSlot(i int) error {
	if i < 0 || i >= len(g.s.Inventory) {
		return &Impossible{"Invalid entry."}
	}
	return nil
}

// drop puts inventory slot i on the floor under the player.
func (g *Game) drop(i int) error {
	if err := g.checkSlot(i); err != nil {
		return err
	}
	it := g.takeFromInventory(i)
	it.Pos = g.player().Pos
	g.s.Items = append(g.s.Items, it)
	g.logf(MsgInfo, "You dropped the "+g.ItemName(it)+".")
	return nil
}

// use applies inventory slot i by its rule, aimed at target where the item
// needs one; equipment is put on or taken off instead, and stays. An item
// whose use is refused stays in the inventory and costs no turn. A wand
// uses a charge and stays; with none left it is refused.
//
// Using an unknown kind teaches it (identify.go: "It was a haste
// potion!"). An unknown potion or scroll is never refused, since the
// refusal would tell what it is: drunk or read where its rule would refuse,
// it is used up and says what happened with nothing to act on (itemRule
// fizzle: "Lightning crackles round you and strikes nothing."), and its
// kind is learned, or, for a kind without such words, "Nothing seems to
// happen." (it stays unknown); an unknown scroll that needs a target is aimed at the nearest monster in
// sight, and one with an area (fireball) with none in sight bursts round
// its reader: the risk of reading to learn, as NetHack's scroll of fire and
// Brogue's potion of incineration carry it. An unknown health potion at full health is drunk and learned.
func (g *Game) use(i int, target world.Pos) error {
	if err := g.checkSlot(i); err != nil {
		return err
	}
	it := g.s.Inventory[i]
	r, ok := ruleOf(it.Kind)
	if ok && r.wear {
		return g.toggleWear(i)
	}
	if !ok || r.use == nil {
		return &Impossible{"You cannot use that."}
	}
	if r.wand {
		return g.zap(i, r, target)
	}
	unknown := g.Unidentified(it.Kind)
	name := g.KindName(it.Kind, 1)
	if !unknown {
		if r.ready != nil {
			if err := r.ready(g); err != nil {
				return err
			}
		}
		if r.potion { // its rule then says only what it does
			g.logf(MsgInfo, "You drink the "+name+".")
		}
		if err := r.use(g, target); err != nil {
			return err
		}
		g.takeFromInventory(i)
		return nil
	}
	if r.potion {
		g.logf(MsgInfo, "You drink the "+name+".")
	} else {
		g.logf(MsgInfo, "You read the "+name+".")
	}
	if r.target != TargetNone {
		target = g.nearestSeenMonster()
		if r.target == TargetArea && target == g.player().Pos {
			g.logf(MsgPlayerHit, "With nothing in sight to aim at, the scroll bursts into flame round you!")
		}
	}
	g.takeFromInventory(i) // before the effect: an identify scroll does not name itself
	var err error
	if it.Kind == HealthPotion && r.ready(g) != nil {
		g.logf(MsgHeal, "You feel healthy for a moment.")
	} else {
		err = r.use(g, target)
	}
	if err != nil && r.fizzle == "" {
		g.logf(MsgInfo, "Nothing seems to happen.")
		return nil
	}
	if err != nil {
		g.logf(MsgInfo, r.fizzle)
	}
	g.learn(it.Kind)
	return nil
}

// zap uses a charge of the wand in pack slot i, aimed at target.
func (g *Game) zap(i int, r *itemRule, target world.Pos) error {
	if g.s.Inventory[i].Charges <= 0 {
		return &Impossible{"You have no charges left."}
	}
	if err := r.use(g, target); err != nil {
		return err
	}
	g.s.Inventory[i].Charges--
	g.restack(i)
	g.learn(r.kind)
	return nil
}

// nearestSeenMonster returns the tile of the living monster in sight
// closest to the player (the first in actor order among equals), or the
// player's own tile when there is none.
func (g *Game) nearestSeenMonster() world.Pos {
	p := g.player().Pos
	best, at := -1, p
	for _, a := range g.s.Actors[1:] {
		if a.Alive() && g.visible(a.Pos) {
			if d := a.Pos.Chebyshev(p); best < 0 || d < best {
				best, at = d, a.Pos
			}
		}
	}
	return at
}

// livingAt returns the living actor at p, or nil.
func (g *Game) livingAt(p world.Pos) *Actor {
	for i := range g.s.Actors {
		if a := &g.s.Actors[i]; a.Alive() && a.Pos == p {
			return a
		}
	}
	return nil
}

// throw throws inventory slot i at target, a visible tile within ThrowRange.
// The item flies in a straight line and stops at the first living actor in
// its way or before the first tile it cannot fly over (flies: a wall, a
// pillar, a door; deep water it flies over, and what comes down on deep
// water sinks). A potion shatters there and gives its splash to the actor it hit;
// anything else does ThrowDamage to it and falls to the floor, but a dart
// that hits breaks one time in DartBreakChance.
func (g *Game) throw(i int, target world.Pos) error {
	if err := g.checkSlot(i); err != nil {
		return err
	}
	p := g.player()
	switch {
	case !g.visible(target):
		return &Impossible{"You cannot throw at a place you cannot see."}
	case target == p.Pos:
		return &Impossible{"You cannot throw at yourself."}
	case target.Chebyshev(p.Pos) > ThrowRange:
		return &Impossible{"That is too far to throw."}
	}
	at, a := g.flight(target)
	if at == p.Pos {
		return &Impossible{"There is no room to throw that way."}
	}
	it := g.takeFromInventory(i)
	name := g.ItemName(it)
	r, _ := ruleOf(it.Kind)
	if a == nil && !g.s.Map.At(at).Walkable() { // it came down on deep water
		g.logf(MsgInfo, fmt.Sprintf("The %s sinks into the %s.", name, tileIDs[g.s.Map.At(at)]))
		return nil
	}
	if r != nil && r.potion {
		if a == nil {
			g.logf(MsgInfo, fmt.Sprintf("The %s shatters on the floor.", name))
			return nil
		}
		g.logf(MsgInfo, fmt.Sprintf("The %s shatters over %s!", name, the(a)))
		if r.splash != nil {
			r.splash(g, a)
		}
		return nil
	}
	it.Pos = at
	if a == nil {
		g.s.Items = append(g.s.Items, it)
		g.logf(MsgInfo, fmt.Sprintf("The %s lands on the floor.", name))
		return nil
	}
	dmg := ThrowDamage
	if r != nil && r.hit != nil {
		dmg = r.hit(g)
	}
	g.logf(MsgPlayerHit, fmt.Sprintf("The %s hits the %s for %d damage.", name, a.Name, dmg))
	// A dart that hits breaks one time in DartBreakChance (NetHack: thrown
	// projectiles can break); anything else falls where it hit.
	if it.Kind == Dart && g.rng.IntN(DartBreakChance) == 0 {
		g.logf(MsgInfo, fmt.Sprintf("The %s breaks.", name))
	} else {
		g.s.Items = append(g.s.Items, it)
	}
	g.hurt(a, dmg, "a thrown "+name, "", true)
	return nil
}

// flight follows a throw from the player toward target: it returns the tile
// where the item stops and the living actor it hit there, or nil. The
// player's own tile means it could not leave their hand.
func (g *Game) flight(target world.Pos) (world.Pos, *Actor) {
	at := g.player().Pos
	for _, q := range world.Line(at, target) {
		if a := g.livingAt(q); a != nil {
			return q, a
		}
		if !g.flies(q) {
			break
		}
		at = q
	}
	return at, nil
}

// flies reports whether a projectile flies over tile p: a thrown item
// (flight) and a monster's shot (clearShot) alike. Whatever sight crosses
// it crosses, deep water too (water stops walking, not flight); walls,
// pillars and doors stop it.
func (g *Game) flies(p world.Pos) bool { return g.s.Map.At(p).Transparent() }
