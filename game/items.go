package game

import (
	"fmt"

	"github.com/grotto-game/grotto/game/world"
)

// The item numbers of the classic tutorials, each in one named place:
// potions from the Java tutorial (part 18, potions and effects), scrolls from
// the rot.js / python-tcod part 9 (ranged scrolls and targeting).
const (
	InventorySize   = 26 // slots, lettered a–z
	HealAmount      = 15 // HP a health potion restores, never above max
	PoisonTurns     = 20 // turns a poison potion lasts
	PoisonDamage    = 1  // HP poison takes each turn
	WarriorTurns    = 20 // turns a warrior's potion lasts
	WarriorBonus    = 5  // power and defense a warrior's potion adds
	LightningDamage = 20 // HP a lightning scroll takes
	LightningRange  = 5  // tiles (Euclidean) to the closest visible enemy
	ConfusionTurns  = 10 // monster turns a confusion scroll lasts
	FireballDamage  = 12 // HP a fireball takes from every actor it hits
	FireballRadius  = 3  // tiles (Euclidean) from the target tile
	ThrowDamage     = 2  // HP a thrown item that is not a potion takes
	ThrowRange      = FOVRadius
)

// ItemKind identifies an item's rules. Its value is saved, so existing
// values never change meaning.
type ItemKind string

// The items of the game.
const (
	HealthPotion    ItemKind = "health potion"
	PoisonPotion    ItemKind = "poison potion"
	WarriorPotion   ItemKind = "warrior's potion"
	LightningScroll ItemKind = "lightning scroll"
	ConfusionScroll ItemKind = "confusion scroll"
	FireballScroll  ItemKind = "fireball scroll"
)

// ItemKinds lists every item kind in a fixed order (menus, tests).
func ItemKinds() []ItemKind {
	return []ItemKind{HealthPotion, PoisonPotion, WarriorPotion, LightningScroll, ConfusionScroll, FireballScroll}
}

// Potion reports whether k is quaffed (and shatters when thrown).
func (k ItemKind) Potion() bool {
	return k == HealthPotion || k == PoisonPotion || k == WarriorPotion
}

// Targeting says what using an item asks of the player first.
type Targeting uint8

// The kinds of target an item needs.
const (
	TargetNone   Targeting = iota // used at once (potions, lightning)
	TargetSingle                  // one visible monster (confusion)
	TargetArea                    // a visible tile and a radius round it (fireball)
)

// Targeting returns what using k needs, and for an area its radius in tiles.
func (k ItemKind) Targeting() (Targeting, int) {
	switch k {
	case ConfusionScroll:
		return TargetSingle, 0
	case FireballScroll:
		return TargetArea, FireballRadius
	}
	return TargetNone, 0
}

// Item is one item, lying on the map at Pos or carried (Pos unused).
type Item struct {
	Kind ItemKind
	Pos  world.Pos
}

// BlastArea returns the tiles an area effect of radius r centred on c covers:
// every tile of the map with dx²+dy² ≤ r² (Euclidean distance ≤ r, as the
// tutorials' fireball measures it), in row-major order. The fireball's
// damage and the targeting preview both use it, so they cannot disagree.
func BlastArea(w, h int, c world.Pos, r int) []world.Pos {
	var out []world.Pos
	for y := max(0, c.Y-r); y <= min(h-1, c.Y+r); y++ {
		for x := max(0, c.X-r); x <= min(w-1, c.X+r); x++ {
			if dx, dy := x-c.X, y-c.Y; dx*dx+dy*dy <= r*r {
				out = append(out, world.Pos{X: x, Y: y})
			}
		}
	}
	return out
}

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
	g.s.Inventory = append(g.s.Inventory, it)
	g.logf(MsgInfo, "You picked up the "+string(it.Kind)+"!")
	return nil
}

// takeFromInventory removes and returns inventory slot i.
func (g *Game) takeFromInventory(i int) Item {
	it := g.s.Inventory[i]
	g.s.Inventory = append(g.s.Inventory[:i], g.s.Inventory[i+1:]...)
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
	g.logf(MsgInfo, "You dropped the "+string(it.Kind)+".")
	return nil
}

// use applies inventory slot i, aimed at target where the item needs one.
// An item whose use is refused stays in the inventory and costs no turn.
func (g *Game) use(i int, target world.Pos) error {
	if err := g.checkSlot(i); err != nil {
		return err
	}
	p := g.player()
	kind := g.s.Inventory[i].Kind
	switch kind {
	case HealthPotion:
		if p.HP >= p.MaxHP {
			return &Impossible{"Your health is already full."}
		}
		healed := g.heal(p, HealAmount)
		g.logf(MsgHeal, fmt.Sprintf("You consume the health potion, and recover %d HP!", healed))
	case PoisonPotion:
		g.logf(MsgStatus, "You drink the poison potion. You feel sick.")
		g.addEffect(p, EffectPoison, PoisonTurns)
	case WarriorPotion:
		g.logf(MsgStatus, "You drink the warrior's potion. You feel stronger!")
		g.addEffect(p, EffectWarrior, WarriorTurns)
	case LightningScroll:
		if err := g.lightning(); err != nil {
			return err
		}
	case ConfusionScroll:
		if err := g.confuse(target); err != nil {
			return err
		}
	case FireballScroll:
		if err := g.fireball(target); err != nil {
			return err
		}
	default:
		return &Impossible{"You cannot use that."}
	}
	g.takeFromInventory(i)
	return nil
}

// heal restores up to n HP to a, never above max, returning how many.
func (g *Game) heal(a *Actor, n int) int {
	got := min(n, a.MaxHP-a.HP)
	a.HP += got
	return got
}

// lightning strikes the closest visible living monster within LightningRange
// (Euclidean distance below range+1, as in the rot.js tutorial).
func (g *Game) lightning() error {
	p := g.player()
	var target *Actor
	best := (LightningRange + 1) * (LightningRange + 1)
	for i := 1; i < len(g.s.Actors); i++ {
		a := &g.s.Actors[i]
		if !a.Alive() || !g.visible(a.Pos) {
			continue
		}
		dx, dy := a.Pos.X-p.Pos.X, a.Pos.Y-p.Pos.Y
		if d := dx*dx + dy*dy; d < best {
			target, best = a, d
		}
	}
	if target == nil {
		return &Impossible{"No enemy is close enough to strike."}
	}
	g.logf(MsgPlayerHit, fmt.Sprintf("A lightning bolt strikes the %s with a loud thunder, for %d damage!", target.Name, LightningDamage))
	g.hurt(target, LightningDamage, "a lightning bolt", true)
	return nil
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

// confuse makes the monster at target stumble for ConfusionTurns turns.
func (g *Game) confuse(target world.Pos) error {
	if !g.visible(target) {
		return &Impossible{"You cannot target an area that you cannot see."}
	}
	a := g.livingAt(target)
	switch {
	case a == nil:
		return &Impossible{"You must select an enemy to target."}
	case a.Kind == "player":
		return &Impossible{"You cannot confuse yourself!"}
	}
	g.logf(MsgStatus, fmt.Sprintf("The eyes of the %s look vacant, as it starts to stumble around!", a.Name))
	g.addEffect(a, EffectConfusion, ConfusionTurns)
	return nil
}

// fireball burns every living actor in BlastArea(target, FireballRadius),
// the player too.
func (g *Game) fireball(target world.Pos) error {
	if !g.visible(target) {
		return &Impossible{"You cannot target an area that you cannot see."}
	}
	if !g.blast(target, FireballRadius, FireballDamage) {
		return &Impossible{"There are no targets in the radius."}
	}
	return nil
}

// blast takes dmg HP from every living actor in BlastArea(c, r) and reports
// whether it hit any; with none in the area it changes nothing.
func (g *Game) blast(c world.Pos, r, dmg int) bool {
	var hit []int
	for _, t := range BlastArea(g.s.Map.W, g.s.Map.H, c, r) {
		for i := range g.s.Actors {
			if a := &g.s.Actors[i]; a.Alive() && a.Pos == t {
				hit = append(hit, i)
			}
		}
	}
	for _, i := range hit {
		a := &g.s.Actors[i]
		g.logf(MsgPlayerHit, fmt.Sprintf("%s %s engulfed in a fiery explosion, taking %d damage!",
			capitalize(the(a)), verb(a, "are", "is"), dmg))
		g.hurt(a, dmg, "a fireball", true)
	}
	return len(hit) > 0
}

// throw throws inventory slot i at target, a visible tile within ThrowRange.
// The item flies in a straight line and stops at the first living actor in
// its way or before the first tile it cannot pass (a wall, a pillar, deep
// water). A potion shatters there and gives its effect to the actor it hit;
// anything else does ThrowDamage to it and falls to the floor.
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
	at, a := p.Pos, (*Actor)(nil)
	for _, q := range world.Line(p.Pos, target) {
		if a = g.livingAt(q); a != nil {
			at = q
			break
		}
		if !g.s.Map.At(q).Walkable() {
			break
		}
		at = q
	}
	if at == p.Pos {
		return &Impossible{"There is no room to throw that way."}
	}
	it := g.takeFromInventory(i)
	if it.Kind.Potion() {
		if a == nil {
			g.logf(MsgInfo, fmt.Sprintf("The %s shatters on the floor.", it.Kind))
			return nil
		}
		g.logf(MsgInfo, fmt.Sprintf("The %s shatters over %s!", it.Kind, the(a)))
		g.potionOn(a, it.Kind)
		return nil
	}
	it.Pos = at
	g.s.Items = append(g.s.Items, it)
	if a == nil {
		g.logf(MsgInfo, fmt.Sprintf("The %s lands on the floor.", it.Kind))
		return nil
	}
	g.logf(MsgPlayerHit, fmt.Sprintf("The %s hits the %s for %d damage.", it.Kind, a.Name, ThrowDamage))
	g.hurt(a, ThrowDamage, "a thrown "+string(it.Kind), true)
	return nil
}

// potionOn gives a thrown potion's effect to a.
func (g *Game) potionOn(a *Actor, k ItemKind) {
	switch k {
	case HealthPotion:
		if g.heal(a, HealAmount) > 0 {
			g.logf(MsgStatus, fmt.Sprintf("%s %s healthier.", capitalize(the(a)), verb(a, "look", "looks")))
		} else {
			g.logf(MsgStatus, fmt.Sprintf("%s %s no different.", capitalize(the(a)), verb(a, "look", "looks")))
		}
	case PoisonPotion:
		g.logf(MsgStatus, fmt.Sprintf("The %s looks sick.", a.Name))
		g.addEffect(a, EffectPoison, PoisonTurns)
	case WarriorPotion:
		g.logf(MsgStatus, fmt.Sprintf("The %s looks stronger.", a.Name))
		g.addEffect(a, EffectWarrior, WarriorTurns)
	}
}
