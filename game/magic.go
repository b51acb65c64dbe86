package game

// This file is what the items to learn (identify.go) do: the
// potions of haste, sleeping, telepathy and vigour, the scrolls of
// teleport, magic mapping, identify, enchant and summoning, the wands of
// striking and slowing, darts, and the trade-offs of the new weapons and
// armour (to hit, evasion, noise). Their table entries are in items.go;
// what the player knows of them is identify.go.

import (
	"fmt"

	"github.com/grotto-game/grotto/game/world"
)

// The numbers of the items to learn. Durations count the player's turns.
const (
	HasteTurns        = 20 // turns a haste potion lasts: monsters act on every other one (Brogue: haste self)
	SleepTurns        = 6  // turns the player sleeps after a sleeping potion, monsters acting
	MonsterSleepTurns = 10 // turns a monster sleeps under a thrown sleeping potion, unless hurt
	TelepathyTurns    = 40 // turns a telepathy potion shows every monster of the level (NetHack: telepathy)
	VigourHP          = 5  // max HP a vigour potion adds for good (and heals)
	SummonCount       = 2  // monsters a summoning scroll brings, at most, beside the player (NetHack: create monster)
	StrikingDice      = 2  // a striking wand's bolt takes StrikingDice d6 HP (NetHack: force bolt, 2d6)
	SlowTurns         = 20 // turns a slowing wand's monster acts only every other turn
	WandMinCharges    = 3  // charges a wand is found with, at least
	WandMaxCharges    = 6  // and at most (drawn evenly)
	DartMin           = 1  // HP a thrown dart takes, at least
	DartMax           = 4  // and at most (drawn evenly)
	DartBundleMin     = 2  // darts lying together where darts spawn, at least
	DartBundleMax     = 4  // and at most
	DartBreakChance   = 3  // a dart that hits breaks one time in this many (NetHack: projectiles break); set by the balance pass
)

// The timed effects of the items to learn.
const (
	EffectHaste     EffectKind = "hasted"     // the player: monsters act on every other turn
	EffectSleep     EffectKind = "asleep"     // a monster: skips its turns until hurt or it ends
	EffectTelepathy EffectKind = "telepathic" // the player: every monster of the level is shown (Sensed)
	EffectSlow      EffectKind = "slowed"     // a monster: acts on every other turn
)

// newItem returns a fresh item of kind k at p, as spawned: a wand gets
// WandMinCharges..WandMaxCharges charges, drawn from the game's RNG.
func (g *Game) newItem(k ItemKind, p world.Pos) Item {
	it := Item{Kind: k, Pos: p}
	if k.Wand() {
		it.Charges = WandMinCharges + g.rng.IntN(WandMaxCharges-WandMinCharges+1)
	}
	return it
}

// spawnItem lays a spawned item of kind k at p: one item, or for darts a
// bundle of DartBundleMin..DartBundleMax on the tile.
func (g *Game) spawnItem(k ItemKind, p world.Pos) {
	n := 1
	if k == Dart {
		n = DartBundleMin + g.rng.IntN(DartBundleMax-DartBundleMin+1)
	}
	for range n {
		g.s.Items = append(g.s.Items, g.newItem(k, p))
	}
}

func useHaste(g *Game, _ world.Pos) error {
	g.logf(MsgStatus, "You feel yourself speed up.")
	g.addEffect(g.player(), EffectHaste, HasteTurns)
	return nil
}

// monstersSkip reports whether this turn the monsters lose their turn to
// the player's haste: on every other turn while it lasts.
func (g *Game) monstersSkip() bool {
	return g.player().Has(EffectHaste) && g.s.Turn%2 == 0
}

// skipsTurn reports whether monster m loses its turn: asleep, or slowed on
// every other turn.
func (g *Game) skipsTurn(m *Actor) bool {
	return m.Has(EffectSleep) || m.Has(EffectSlow) && g.s.Turn%2 == 1
}

// useSleeping puts the player to sleep: SleepTurns turns pass at once, the
// monsters acting in each, the last being the command's own.
func useSleeping(g *Game, _ world.Pos) error {
	g.logf(MsgStatus, "You fall asleep.")
	for range SleepTurns - 1 {
		g.endTurn()
		if g.s.Over {
			return nil
		}
		g.s.Turn++
	}
	g.logf(MsgStatus, "You wake up.")
	return nil
}

func splashSleeping(g *Game, a *Actor) {
	g.logf(MsgStatus, capitalize(the(a))+" falls asleep.")
	g.addEffect(a, EffectSleep, MonsterSleepTurns)
}

// endSleep ends the sleep of a sleeping potion on a, saying so: a blow wakes it.
func (g *Game) endSleep(a *Actor) {
	for i, e := range a.Effects {
		if e.Kind == EffectSleep {
			a.Effects = append(a.Effects[:i], a.Effects[i+1:]...)
			g.logf(MsgStatus, capitalize(the(a))+" wakes up!")
			return
		}
	}
}

func useTelepathy(g *Game, _ world.Pos) error {
	g.logf(MsgStatus, "You sense the minds around you.")
	g.addEffect(g.player(), EffectTelepathy, TelepathyTurns)
	return nil
}

// Sensed returns the living monsters the player senses by telepathy but
// does not see, in actor order (copies); none without telepathy.
func (g *Game) Sensed() []Actor {
	if !g.player().Has(EffectTelepathy) {
		return nil
	}
	var out []Actor
	for _, a := range g.s.Actors[1:] {
		if a.Alive() && !g.visible(a.Pos) {
			out = append(out, a.clone())
		}
	}
	return out
}

func useVigour(g *Game, _ world.Pos) error {
	p := g.player()
	p.MaxHP += VigourHP
	p.HP += VigourHP
	g.logf(MsgHeal, fmt.Sprintf("You feel vigorous! Your maximum HP rises by %d.", VigourHP))
	return nil
}

func splashVigour(g *Game, a *Actor) {
	a.MaxHP += VigourHP
	a.HP += VigourHP
	g.logf(MsgStatus, capitalize(the(a))+" looks vigorous.")
}

// useTeleport moves the player to a random walkable free tile out of sight
// (NetHack: scroll of teleportation, within the level).
func useTeleport(g *Game, _ world.Pos) error {
	m := g.s.Map
	var free []world.Pos
	for y := range m.H {
		for x := range m.W {
			p := world.Pos{X: x, Y: y}
			if m.At(p).Walkable() && !g.visible(p) && g.blockerAt(p) == nil {
				free = append(free, p)
			}
		}
	}
	if len(free) == 0 {
		return &Impossible{"You feel a wrench, but stay where you are."}
	}
	g.player().Pos = free[g.rng.IntN(len(free))]
	g.logf(MsgStatus, "You are yanked through space!")
	g.describeFloor()
	return nil
}

// useMapping explores the whole level (NetHack: magic mapping).
func useMapping(g *Game, _ world.Pos) error {
	for i := range g.s.Map.Explored {
		g.s.Map.Explored[i] = true
	}
	g.logf(MsgStatus, "A map of the level forms in your mind!")
	return nil
}

// useIdentify teaches the first kind in the pack the player does not know
// (the identify scroll itself aside: reading it teaches it).
func useIdentify(g *Game, _ world.Pos) error {
	for _, it := range g.s.Inventory {
		if it.Kind != IdentifyScroll && g.Unidentified(it.Kind) {
			old := g.KindName(it.Kind, 1)
			g.s.Known = append(g.s.Known, it.Kind)
			g.logf(MsgInfo, fmt.Sprintf("You learn that the %s is %s.", old, WithArticle(string(it.Kind))))
			return nil
		}
	}
	return &Impossible{"You carry nothing unknown to identify."}
}

// useEnchant adds one to the worn weapon's power, else to the worn
// armour's defense (NetHack: enchant weapon and enchant armour in one).
func useEnchant(g *Game, _ world.Pos) error {
	i := g.wornIn(SlotWeapon)
	if i < 0 {
		i = g.wornIn(SlotArmour)
	}
	if i < 0 {
		return &Impossible{"You wear nothing to enchant."}
	}
	it := &g.s.Inventory[i]
	it.Enchant++
	g.restack(i)
	g.logf(MsgStatus, fmt.Sprintf("Your %s glows blue for a moment.", g.KindName(it.Kind, 1)))
	return nil
}

// useSummoning brings up to SummonCount monsters of the depth's spawn
// table onto free tiles next to the player: the scroll an unknown label
// may be.
func useSummoning(g *Game, _ world.Pos) error {
	p := g.player()
	var free []world.Pos
	for _, d := range world.Directions8 {
		q := p.Pos.Add(d.X, d.Y)
		if g.s.Map.At(q).Walkable() && g.blockerAt(q) == nil {
			free = append(free, q)
		}
	}
	if len(free) == 0 {
		return &Impossible{"You hear a distant growl, then nothing."}
	}
	n := 0
	for range SummonCount {
		if len(free) == 0 {
			break
		}
		j := g.rng.IntN(len(free))
		q := free[j]
		free = append(free[:j], free[j+1:]...)
		if k, ok := g.data.Monster(pickSpawn(g.rng, g.data.MonsterSpawns, g.s.Depth)); ok {
			g.s.Actors = append(g.s.Actors, newMonster(k, q))
			n++
		}
	}
	if n == 0 {
		return &Impossible{"You hear a distant growl, then nothing."}
	}
	g.logf(MsgStatus, "You hear a menacing growl: monsters appear around you!")
	return nil
}

// zapTarget returns the monster a wand is zapped at: a living one the
// player sees at target.
func (g *Game) zapTarget(target world.Pos) (*Actor, error) {
	if !g.visible(target) {
		return nil, &Impossible{"You cannot target an area that you cannot see."}
	}
	a := g.livingAt(target)
	switch {
	case a == nil:
		return nil, &Impossible{"You must select an enemy to target."}
	case a.Kind == "player":
		return nil, &Impossible{"You cannot aim that at yourself."}
	}
	return a, nil
}

func zapStriking(g *Game, target world.Pos) error {
	a, err := g.zapTarget(target)
	if err != nil {
		return err
	}
	dmg := 0
	for range StrikingDice {
		dmg += 1 + g.rng.IntN(6)
	}
	g.logf(MsgPlayerHit, fmt.Sprintf("A bolt of force strikes the %s for %d damage!", a.Name, dmg))
	g.hurt(a, dmg, "a bolt of force", "", true)
	return nil
}

func zapSlowing(g *Game, target world.Pos) error {
	a, err := g.zapTarget(target)
	if err != nil {
		return err
	}
	g.logf(MsgStatus, fmt.Sprintf("The %s slows down.", a.Name))
	g.addEffect(a, EffectSlow, SlowTurns)
	return nil
}

// gearAccuracy returns the points, in %, a's equipment adds to its chance to
// hit (items.json "accuracy"; the war axe's is negative); monsters wear
// nothing. It is added to the chance of HitChance (combat.go).
func (g *Game) gearAccuracy(a *Actor) int {
	n := 0
	g.eachWorn(a, func(it Item) { n += g.equipOf(it.Kind).Accuracy })
	return n
}

// gearEvasion returns the points, in %, a's equipment takes from the chance of
// blows aimed at it (items.json "evasion": the rapier's and the cloak's are
// positive, plate mail's negative).
func (g *Game) gearEvasion(a *Actor) int {
	n := 0
	g.eachWorn(a, func(it Item) { n += g.equipOf(it.Kind).Evasion })
	return n
}

// gearNoise returns the tiles the player's equipment adds to how far monsters
// notice them (items.json "noise": plate mail clanks, an elven cloak hushes).
func (g *Game) gearNoise() int {
	n := 0
	g.eachWorn(g.player(), func(it Item) { n += g.equipOf(it.Kind).Noise })
	return n
}

// eachWorn calls f for every item a wears: the player's worn equipment;
// monsters wear nothing.
func (g *Game) eachWorn(a *Actor, f func(Item)) {
	if a.Kind != "player" {
		return
	}
	for _, it := range g.s.Inventory {
		if it.Worn && g.equipOf(it.Kind) != nil {
			f(it)
		}
	}
}

// HitChance returns the chance, in %, that the player's blows land on a
// monster of no accuracy or evasion of its own and that such a monster's
// blows land on the player, with what the player wears (combat.go, odds).
func (g *Game) HitChance() (player, monsters int) {
	m := Actor{Kind: "", Blocks: true}
	return g.chance(g.player(), &m), g.chance(&m, g.player())
}
