package game

// This file is the item rules: one table entry per kind of item, saying how
// it looks, what using it asks for and does, and what it does when thrown.
// A new item is one entry here plus its line in content/data/items.json.
// The actions on the pack that read the table are in inventory.go.

import (
	"fmt"

	"github.com/grotto-game/grotto/game/world"
)

// The item numbers of the classic tutorials, each in one named place (what a
// health potion heals is balance data: balance.json, health_potion_heal):
// potions from the Java tutorial (part 18, potions and effects), scrolls from
// the rot.js / python-tcod part 9 (ranged scrolls and targeting).
const (
	InventorySize   = 26 // slots, lettered a–z
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
	Dagger          ItemKind = "dagger"         // weapon (python-tcod part 13: +2 power)
	Sword           ItemKind = "sword"          // weapon (+4 power)
	LeatherArmour   ItemKind = "leather armour" // armour (+1 defense)
	ChainMail       ItemKind = "chain mail"     // armour (+3 defense)

	// Items to learn (identify.go; their numbers are in magic.go).
	HastePotion     ItemKind = "haste potion"     // you act twice for each monster turn, HasteTurns turns
	SleepingPotion  ItemKind = "sleeping potion"  // you sleep SleepTurns turns; thrown, the monster sleeps
	TelepathyPotion ItemKind = "telepathy potion" // every monster of the level shown, TelepathyTurns turns
	VigourPotion    ItemKind = "vigour potion"    // +VigourHP max HP for good
	TeleportScroll  ItemKind = "teleport scroll"  // to a random free tile out of sight
	MappingScroll   ItemKind = "mapping scroll"   // the whole level explored
	IdentifyScroll  ItemKind = "identify scroll"  // teaches one unknown kind you carry
	EnchantScroll   ItemKind = "enchant scroll"   // +1 to the worn weapon's power, else the worn armour's defense
	SummoningScroll ItemKind = "summoning scroll" // the bad one: monsters appear round you
	StrikingWand    ItemKind = "striking wand"    // a bolt at a monster for StrikingDice
	SlowingWand     ItemKind = "slowing wand"     // the monster acts every other turn, SlowTurns turns
	Dart            ItemKind = "dart"             // thrown for DartMin..DartMax HP
	WarAxe          ItemKind = "war axe"          // weapon: +6 power, but -20% to hit
	Rapier          ItemKind = "rapier"           // weapon: +3 power, +10% to evade blows
	PlateMail       ItemKind = "plate mail"       // armour: +5 defense, but noisy and clumsy
	ElvenCloak      ItemKind = "elven cloak"      // armour: +1 defense, quiet
	FoodRation      ItemKind = "food ration"      // eaten: RationNutrition more nutrition (clock.go)
)

// Targeting says what using an item asks of the player first.
type Targeting uint8

// The kinds of target an item needs.
const (
	TargetNone   Targeting = iota // used at once (potions, lightning)
	TargetSingle                  // one visible monster (confusion)
	TargetArea                    // a visible tile and a radius round it (fireball)
)

// itemRule is everything the game does with one kind of item. What it
// looks like (glyph, colour) and where it spawns are data, in items.json
// (game/content): the map draws the data's glyph.
type itemRule struct {
	kind   ItemKind
	potion bool // quaffed; shatters when thrown, giving splash to whom it hits
	scroll bool // read; unidentified until used (identify.go)
	// wand marks an item used by zapping: it keeps its charges per item
	// (Item.Charges) and stays in the pack when they run out.
	wand bool
	// hit is the HP a thrown item that is not a potion takes, drawn from
	// the game's RNG (darts); nil: ThrowDamage.
	hit    func(g *Game) int
	target Targeting // what using it asks of the player first
	radius int       // for TargetArea: tiles (Euclidean) round the target
	// wear marks equipment (python-tcod tutorial part 13): using it puts it
	// on, or takes it off if worn, and it stays in the pack. Its slot and
	// bonuses are data (items.json "equip"); wearing is in equipment.go.
	wear bool
	// ready, when set, returns the *Impossible refusal of a known item that
	// cannot be used now (a health potion at full health), before anything
	// is said; nil: it can.
	ready func(g *Game) error
	// use applies the item for the player, aimed at target where it needs
	// one; a potion's use says only what it does (use, inventory.go, says
	// "You drink the …" first). It returns an *Impossible, having changed nothing, when the item
	// cannot be used now; the caller then keeps it in the pack.
	use func(g *Game, target world.Pos) error
	// splash gives a thrown potion's effect to the actor it shattered over;
	// nil for items that are not potions (they hit for ThrowDamage instead).
	splash func(g *Game, a *Actor)
	// fizzle is what an unknown one read or drunk where its rule refuses
	// says happened: it is used up and its kind learned, as NetHack's
	// scrolls are when read with nothing to act on. "": "Nothing seems to
	// happen." and it stays unknown.
	fizzle string
}

// itemRules is the table of item rules, in the order of ItemKinds (menus).
// It is filled in init: the rules refer to the turn loop, which refers back
// to the table.
var itemRules []itemRule

func init() { itemRules = itemTable() }

func itemTable() []itemRule {
	return []itemRule{
		{kind: HealthPotion, potion: true, ready: readyHealth, use: useHealth, splash: splashHealth},
		{kind: PoisonPotion, potion: true, use: usePoison, splash: splashPoison},
		{kind: WarriorPotion, potion: true, use: useWarrior, splash: splashWarrior},
		{kind: LightningScroll, scroll: true, fizzle: "Lightning crackles round you and strikes nothing.",
			use: func(g *Game, _ world.Pos) error { return g.lightning() }},
		{kind: ConfusionScroll, scroll: true, target: TargetSingle, fizzle: "A purple mist swirls round you and fades: there is no one to bewilder.",
			use: func(g *Game, target world.Pos) error { return g.confuse(target) }},
		{kind: FireballScroll, scroll: true, target: TargetArea, radius: FireballRadius,
			use: func(g *Game, target world.Pos) error { return g.fireball(target) }},
		{kind: Dagger, wear: true},
		{kind: Sword, wear: true},
		{kind: LeatherArmour, wear: true},
		{kind: ChainMail, wear: true},
		{kind: HastePotion, potion: true, use: useHaste,
			splash: func(g *Game, a *Actor) { g.logf(MsgStatus, capitalize(the(a))+" looks briefly faster.") }},
		{kind: SleepingPotion, potion: true, use: useSleeping, splash: splashSleeping},
		{kind: TelepathyPotion, potion: true, use: useTelepathy,
			splash: func(g *Game, a *Actor) { g.logf(MsgStatus, capitalize(the(a))+" looks thoughtful.") }},
		{kind: VigourPotion, potion: true, use: useVigour, splash: splashVigour},
		{kind: TeleportScroll, scroll: true, use: useTeleport, fizzle: "You feel a wrench, but stay where you are."},
		{kind: MappingScroll, scroll: true, use: useMapping},
		{kind: IdentifyScroll, scroll: true, use: useIdentify, fizzle: "You feel wise for a moment, but carry nothing unknown."},
		{kind: EnchantScroll, scroll: true, use: useEnchant, fizzle: "A faint glow seeks something you wear, and fades."},
		{kind: SummoningScroll, scroll: true, use: useSummoning, fizzle: "You hear a distant growl, then nothing."},
		{kind: StrikingWand, wand: true, target: TargetSingle, use: zapStriking},
		{kind: SlowingWand, wand: true, target: TargetSingle, use: zapSlowing},
		{kind: Dart, hit: func(g *Game) int { return DartMin + g.rng.IntN(DartMax-DartMin+1) }},
		{kind: WarAxe, wear: true},
		{kind: Rapier, wear: true},
		{kind: PlateMail, wear: true},
		{kind: ElvenCloak, wear: true},
		{kind: FoodRation,
			use: func(g *Game, _ world.Pos) error { return g.eat() }},
	}
}

// readyHealth refuses a health potion at full health (python-tcod part
// 8: "Your health is already full.").
func readyHealth(g *Game) error {
	if p := g.player(); p.HP >= p.MaxHP {
		return &Impossible{"Your health is already full."}
	}
	return nil
}

// useHealth heals the player a health potion's HP (potionHeal), up to
// their maximum.
func useHealth(g *Game, _ world.Pos) error {
	healed := g.heal(g.player(), g.potionHeal(g.player()))
	g.logf(MsgHeal, fmt.Sprintf("You recover %d HP!", healed))
	return nil
}

// potionHeal is the HP a health potion restores to a: Balance's
// HealthPotionPercent of its max HP, at least HealthPotionHeal.
func (g *Game) potionHeal(a *Actor) int {
	b := g.data.Balance
	return max(b.HealthPotionHeal, a.MaxHP*b.HealthPotionPercent/100)
}

// splashHealth heals the actor a thrown health potion hits as a drink
// would.
func splashHealth(g *Game, a *Actor) {
	if g.heal(a, g.potionHeal(a)) > 0 {
		g.logf(MsgStatus, fmt.Sprintf("%s %s healthier.", capitalize(the(a)), verb(a, "look", "looks")))
	} else {
		g.logf(MsgStatus, fmt.Sprintf("%s %s no different.", capitalize(the(a)), verb(a, "look", "looks")))
	}
}

// usePoison poisons the player for PoisonTurns turns.
func usePoison(g *Game, _ world.Pos) error {
	g.logf(MsgStatus, "You feel sick.")
	g.addEffect(g.player(), EffectPoison, PoisonTurns)
	return nil
}

// splashPoison poisons the actor a thrown poison potion hits.
func splashPoison(g *Game, a *Actor) {
	g.logf(MsgStatus, fmt.Sprintf("The %s looks sick.", a.Name))
	g.addEffect(a, EffectPoison, PoisonTurns)
}

// useWarrior makes the player strong (WarriorBonus) for WarriorTurns
// turns.
func useWarrior(g *Game, _ world.Pos) error {
	g.logf(MsgStatus, "You feel stronger!")
	g.addEffect(g.player(), EffectWarrior, WarriorTurns)
	return nil
}

// splashWarrior makes the actor a thrown warrior's potion hits strong.
func splashWarrior(g *Game, a *Actor) {
	g.logf(MsgStatus, fmt.Sprintf("The %s looks stronger.", a.Name))
	g.addEffect(a, EffectWarrior, WarriorTurns)
}

// ruleOf returns k's rule, or false for a kind the game does not know.
func ruleOf(k ItemKind) (*itemRule, bool) {
	for i := range itemRules {
		if itemRules[i].kind == k {
			return &itemRules[i], true
		}
	}
	return nil, false
}

// ItemKinds lists every item kind in a fixed order (menus, tests).
func ItemKinds() []ItemKind {
	out := make([]ItemKind, len(itemRules))
	for i, r := range itemRules {
		out[i] = r.kind
	}
	return out
}

// Known reports whether k is an item this version of the game has rules for.
func (k ItemKind) Known() bool {
	_, ok := ruleOf(k)
	return ok
}

// Potion reports whether k is quaffed (and shatters when thrown).
func (k ItemKind) Potion() bool {
	r, ok := ruleOf(k)
	return ok && r.potion
}

// Scroll reports whether k is read.
func (k ItemKind) Scroll() bool {
	r, ok := ruleOf(k)
	return ok && r.scroll
}

// Wand reports whether k is zapped, using one of the item's charges.
func (k ItemKind) Wand() bool {
	r, ok := ruleOf(k)
	return ok && r.wand
}

// Wearable reports whether k is equipment: worn in a slot, not used up.
func (k ItemKind) Wearable() bool {
	r, ok := ruleOf(k)
	return ok && r.wear
}

// Targeting returns what using k needs, and for an area its radius in tiles.
func (k ItemKind) Targeting() (Targeting, int) {
	if r, ok := ruleOf(k); ok {
		return r.target, r.radius
	}
	return TargetNone, 0
}

// Item is one item, lying on the map at Pos or carried (Pos unused).
type Item struct {
	Kind ItemKind
	Pos  world.Pos
	Worn bool // carried equipment the player wears (equipment.go); never set on the floor
	// Charges is how many more times a wand can be zapped (WandMinCharges..
	// WandMaxCharges at spawn); 0 for other items.
	Charges int
	// Enchant is what enchant scrolls added to a weapon's power or an
	// armour's defense, in points; 0 for other items.
	Enchant int
	// Letter is the pack letter of an item the player carries, 'a'..'z',
	// shared by the items of one stack and kept while the item is in the
	// pack (stack.go); 0 for an item anywhere else.
	Letter rune
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
		if !g.seenBy(a) {
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
	g.hurt(target, LightningDamage, "a lightning bolt", "", true)
	return nil
}

// confuse makes the monster at target stumble for ConfusionTurns turns.
func (g *Game) confuse(target world.Pos) error {
	if !g.visible(target) {
		return &Impossible{"You cannot target an area that you cannot see."}
	}
	a := g.livingAt(target)
	switch {
	case a == nil || a.Hidden: // a hidden lurker is not there for all the player knows
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
		if g.unharmed(a) {
			g.logf(MsgPlayerHit, "You are engulfed in a fiery explosion but unharmed (god mode).")
		} else {
			g.logf(MsgPlayerHit, fmt.Sprintf("%s %s engulfed in a fiery explosion, taking %d damage!",
				capitalize(the(a)), verb(a, "are", "is"), dmg))
		}
		g.hurt(a, dmg, "a fireball", fmt.Sprintf("your own, for %d", dmg), true)
	}
	return len(hit) > 0
}
