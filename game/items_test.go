package game

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// give puts items of the given kinds in the player's inventory.
// give puts items of kinds in the pack, known to the player (the
// rules' tests test the rules; identification has its own, with
// giveUnknown).
func give(g *Game, kinds ...ItemKind) {
	giveUnknown(g, kinds...)
	know(g, kinds...)
}

// giveUnknown puts items of kinds in the pack, not known (a wand with
// WandMaxCharges charges).
func giveUnknown(g *Game, kinds ...ItemKind) {
	for _, k := range kinds {
		it := Item{Kind: k}
		if k.Wand() {
			it.Charges = WandMaxCharges
		}
		g.addToPack(it)
	}
}

// know teaches the player kinds, silently.
func know(g *Game, kinds ...ItemKind) {
	for _, k := range kinds {
		if g.Unidentified(k) {
			g.s.Known = append(g.s.Known, k)
		}
	}
}

func lastMsg(g *Game) string { return g.s.Log[len(g.s.Log)-1].Text }

func mustApply(t *testing.T, g *Game, c Command) {
	t.Helper()
	if _, err := g.Apply(c); err != nil {
		t.Fatalf("%+v: %v", c, err)
	}
}

// refused checks that c is refused with msg and changes nothing.
func refused(t *testing.T, g *Game, c Command, msg string) {
	t.Helper()
	before, _ := g.Encode()
	_, err := g.Apply(c)
	var imp *Impossible
	if !errors.As(err, &imp) || imp.Msg != msg {
		t.Errorf("%+v: err = %v, want %q", c, err, msg)
	}
	if after, _ := g.Encode(); !bytes.Equal(before, after) {
		t.Errorf("%+v was refused but changed the game", c)
	}
}

// TestHealthPotionHealsItsAmountNotAboveMaxAndIsRefusedAtFullHealth: a
// potion heals balance.json's health_potion_heal.
func TestHealthPotionHealsItsAmountNotAboveMaxAndIsRefusedAtFullHealth(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, HealthPotion, HealthPotion)
	refused(t, g, Use(0, world.Pos{}), "Your health is already full.")
	g.s.Actors[0].HP = 10
	mustApply(t, g, Use(0, world.Pos{}))
	heal := testData.Balance.HealthPotionHeal
	if hp := g.Player().HP; hp != 10+heal || lastMsg(g) != fmt.Sprintf("You recover %d HP!", heal) {
		t.Errorf("HP after potion = %d (%q), want %d", hp, lastMsg(g), 10+heal)
	}
	g.s.Actors[0].HP = 30 - heal + 1
	mustApply(t, g, Use(0, world.Pos{}))
	if hp := g.Player().HP; hp != 30 {
		t.Errorf("HP = %d, want capped at 30", hp)
	}
	if len(g.Inventory()) != 0 {
		t.Error("potions were not consumed")
	}
}

func TestPoisonHurtsOnePerTurnFor20TurnsAndShowsTurnsLeft(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, PoisonPotion)
	mustApply(t, g, Use(0, world.Pos{}))
	if e := g.Player().Effects; len(e) != 1 || e[0].TurnsLeft != 19 {
		t.Fatalf("after the turn it was drunk: %+v, want 19 turns left", e)
	}
	for range 30 {
		mustApply(t, g, Wait())
	}
	// No regeneration while poisoned; 1 HP back on turn 30 once it ends (RegenEvery(1) = 30)
	if hp := g.Player().HP; hp != 30-20*PoisonDamage+1 {
		t.Errorf("HP = %d, want %d after 20 turns of poison and one regenerated", hp, 30-20+1)
	}
	if p := g.Player(); p.Has(EffectPoison) {
		t.Error("poison outlasted its 20 turns")
	}
}

func TestPoisonDeathNamesPoison(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	g.s.Actors[0].HP = 3
	give(g, PoisonPotion)
	mustApply(t, g, Use(0, world.Pos{}))
	for i := 0; i < 10 && !g.Over(); i++ {
		g.Apply(Wait())
	}
	if !g.Over() || g.Cause() != "killed by poison on depth 1 (1 HP a turn)" {
		t.Errorf("over=%v cause=%q", g.Over(), g.Cause())
	}
}

func TestWarriorsPotionLasts20TurnsAndIsGoneOnTurn21(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, WarriorPotion)
	mustApply(t, g, Use(0, world.Pos{})) // turn 1
	if p := g.Player(); p.Power != 10 || p.Defense != 7 {
		t.Fatalf("power %d defense %d, want 10 and 7", p.Power, p.Defense)
	}
	for g.Turn() < 20 {
		mustApply(t, g, Wait())
		if g.Turn() < 20 && g.Player().Power != 10 {
			t.Fatalf("bonus gone early, on turn %d", g.Turn())
		}
	}
	if p := g.Player(); p.Power != 5 || p.Defense != 2 {
		t.Errorf("on turn 21 power %d defense %d, want 5 and 2", p.Power, p.Defense)
	}
	if !strings.Contains(lastMsg(g), "less strong") {
		t.Errorf("last message %q", lastMsg(g))
	}
}

func TestLightningStrikesTheClosestVisibleEnemyWithin5(t *testing.T) {
	g := arena("orc")
	g.s.Actors[1].Pos = world.Pos{X: 8, Y: 2} // 6 tiles away
	g.updateFOV()
	give(g, LightningScroll)
	refused(t, g, Use(0, world.Pos{}), "No enemy is close enough to strike.")
	g.s.Actors[1].Pos = world.Pos{X: 7, Y: 2} // 5 tiles away
	g.s.Actors[1].HP = 25
	mustApply(t, g, Use(0, world.Pos{}))
	if hp := g.s.Actors[1].HP; hp != 5 {
		t.Errorf("orc HP = %d, want 25-20", hp)
	}
	if len(g.Inventory()) != 0 {
		t.Error("scroll not consumed")
	}
}

func TestConfusionLastsExactly10MonsterTurnsThenTheMonsterHuntsAgain(t *testing.T) {
	g := arena("troll")
	give(g, ConfusionScroll)
	troll := world.Pos{X: 3, Y: 2}
	refused(t, g, Use(0, world.Pos{X: 5, Y: 5}), "You must select an enemy to target.")
	refused(t, g, Use(0, g.Player().Pos), "You cannot confuse yourself!")
	refused(t, g, Use(0, world.Pos{X: 40, Y: 30}), "You cannot target an area that you cannot see.")
	g.s.Actors[0].HP = 1000
	g.s.Actors[1].HP = 1000
	mustApply(t, g, Use(0, troll))
	stumbles := 1
	for g.s.Actors[1].Has(EffectConfusion) {
		mustApply(t, g, Wait())
		stumbles++
		if stumbles > 20 {
			t.Fatal("confusion never ends")
		}
	}
	if stumbles != ConfusionTurns {
		t.Errorf("confused for %d monster turns, want %d", stumbles, ConfusionTurns)
	}
	if !strings.Contains(lastMsg(g), "The troll is no longer confused.") {
		t.Errorf("last message %q", lastMsg(g))
	}
	// Back to hunting: it closes in on the player and attacks.
	hp := g.Player().HP
	for range 15 {
		mustApply(t, g, Wait())
	}
	if g.Player().HP >= hp {
		t.Error("the troll did not return to attacking after its confusion")
	}
}

func TestFireballHits12InRadius3IncludingThePlayer(t *testing.T) {
	g := arena("orc")
	g.s.Actors[1].Pos = world.Pos{X: 6, Y: 2}
	g.s.Actors[1].HP = 100
	g.updateFOV()
	give(g, FireballScroll)
	refused(t, g, Use(0, world.Pos{X: 7, Y: 8}), "There are no targets in the radius.")
	mustApply(t, g, Use(0, world.Pos{X: 4, Y: 2})) // player 2 away, orc 2 away
	if hp := g.Player().HP; hp != 30-12 {
		t.Errorf("player HP = %d, want 18", hp)
	}
	if hp := g.s.Actors[1].HP; hp != 100-12 {
		t.Errorf("orc HP = %d, want 88", hp)
	}
}

func TestBlastAreaIsExactlyTheTilesTheFireballHits(t *testing.T) {
	// Property: for every radius and centre, an actor is burnt if and only
	// if its tile is in BlastArea — the preview the player sees.
	const w, h = 12, 9
	for r := 0; r <= 5; r++ {
		for cy := 0; cy < h; cy++ {
			for cx := 0; cx < w; cx++ {
				c := world.Pos{X: cx, Y: cy}
				area := BlastArea(w, h, c, r)
				for y := 0; y < h; y++ {
					for x := 0; x < w; x++ {
						p := world.Pos{X: x, Y: y}
						g := blastProbe(w, h, p)
						g.blast(c, r, 1)
						burnt := g.s.Actors[1].HP < 100
						if burnt != slices.Contains(area, p) {
							t.Fatalf("r=%d centre %v: actor at %v burnt=%v, in preview=%v", r, c, p, burnt, !burnt)
						}
					}
				}
			}
		}
	}
}

// blastProbe is an all-floor, all-visible w x h game with one monster at p.
func blastProbe(w, h int, p world.Pos) *Game {
	g := &Game{}
	g.s.Map = world.NewMap(w, h)
	for i := range g.s.Map.Tiles {
		g.s.Map.Tiles[i] = world.Floor
	}
	g.s.Depth = 1
	g.s.Actors = []Actor{newPlayer(world.Pos{X: -100, Y: -100}), newMonster(orc(), p)}
	g.s.Actors[1].HP = 100
	g.buffers()
	g.fov.Compute(g.s.Map, world.Pos{X: w / 2, Y: h / 2}, 100)
	return g
}

func TestThrownPotionGivesItsEffectToTheMonster(t *testing.T) {
	g := arena("orc")
	g.s.Actors[1].Pos = world.Pos{X: 5, Y: 2}
	g.updateFOV()
	give(g, PoisonPotion, LightningScroll)
	refused(t, g, Throw(0, g.Player().Pos), "You cannot throw at yourself.")
	mustApply(t, g, Throw(0, world.Pos{X: 5, Y: 2}))
	if !g.s.Actors[1].Has(EffectPoison) {
		t.Error("thrown poison did not poison the orc")
	}
	if n := len(g.Inventory()); n != 1 {
		t.Fatalf("inventory has %d items, want the scroll only", n)
	}
	hp, at := g.s.Actors[1].HP, g.s.Actors[1].Pos
	mustApply(t, g, Throw(0, at))
	if g.s.Actors[1].HP >= hp {
		t.Error("a thrown scroll did no damage")
	}
	if len(g.itemsAt(at)) != 1 {
		t.Error("a thrown scroll should land on the floor")
	}
}

func TestPickUpAndDrop(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	refused(t, g, PickUp(), "There is nothing here to pick up.")
	g.s.Items = []Item{{Kind: FireballScroll, Pos: g.Player().Pos}}
	know(g, FireballScroll)
	for range InventorySize {
		give(g, HealthPotion)
	}
	refused(t, g, PickUp(), "Your inventory is full.")
	g.s.Inventory = nil
	mustApply(t, g, PickUp())
	if inv := g.Inventory(); len(inv) != 1 || inv[0].Kind != FireballScroll || len(g.Items()) != 0 {
		t.Fatalf("inventory %+v, floor %+v", inv, g.Items())
	}
	if lastMsg(g) != "You picked up the fireball scroll!" {
		t.Errorf("message %q", lastMsg(g))
	}
	refused(t, g, Drop(3), "Invalid entry.")
	mustApply(t, g, Drop(0))
	if len(g.Inventory()) != 0 || len(g.itemsAt(g.Player().Pos)) != 1 {
		t.Error("drop did not put the item under the player")
	}
}

// countItems returns how many items of each kind exist, carried or on the floor.
func countItems(g *Game) map[ItemKind]int {
	n := map[ItemKind]int{}
	for _, it := range append(g.Items(), g.Inventory()...) {
		n[it.Kind]++
	}
	return n
}

func TestNoItemIsLostOrDuplicatedByPickUpDropThrowSaveLoad(t *testing.T) {
	for seed := range uint64(30) {
		g := New(seed, testData)
		// Walk over the level picking up, dropping and throwing scrolls;
		// only reading or quaffing may make an item disappear.
		want := countItems(g)
		for i, c := range randomCommands(seed, 400) {
			switch i % 7 {
			case 0:
				c = PickUp()
			case 3:
				c = Drop(0)
			case 5:
				c = Throw(0, g.Player().Pos.Add(2, 0))
			}
			inv := g.Inventory()
			thrownPotion := c.Action == ActThrow && len(inv) > 0 && inv[0].Kind.Potion()
			if _, err := g.Apply(c); err == nil && thrownPotion {
				want[inv[0].Kind]--
			}
			if c.Action == ActDescend && g.Depth() > 1 {
				break
			}
			if i == 200 {
				blob, _ := g.Encode()
				var err error
				if g, err = Decode(blob, testData); err != nil {
					t.Fatal(err)
				}
			}
		}
		if g.Depth() > 1 {
			continue // a new level has new items
		}
		got := countItems(g)
		for _, k := range ItemKinds() {
			if got[k] != want[k] {
				t.Fatalf("seed %d: %d %s, want %d", seed, got[k], k, want[k])
			}
		}
	}
}

func TestEffectsSurviveSaveAndLoadMidway(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, WarriorPotion, PoisonPotion)
	mustApply(t, g, Use(0, world.Pos{}))
	mustApply(t, g, Use(0, world.Pos{}))
	for range 5 {
		mustApply(t, g, Wait())
	}
	blob, _ := g.Encode()
	h, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(h.Player().Effects, g.Player().Effects) || h.Player().Effects[0].TurnsLeft != 13 {
		t.Fatalf("effects after load %+v, before %+v", h.Player().Effects, g.Player().Effects)
	}
	for range 20 {
		mustApply(t, h, Wait())
	}
	if p := h.Player(); p.Power != 5 || p.Defense != 2 || p.HP != 30-20 || len(p.Effects) != 0 {
		t.Errorf("after the effects ran out on a loaded game: %+v", p)
	}
}

// TestItemsSpawnWithTheirTableWeightsOnDepth1: health potions make up their
// spawns.json weight's share of depth 1's items.
func TestItemsSpawnWithTheirTableWeightsOnDepth1(t *testing.T) {
	n := map[ItemKind]int{}
	total := 0
	for seed := range uint64(300) {
		for _, it := range New(seed, testData).Items() {
			n[it.Kind]++
			total++
		}
	}
	if total < 1000 {
		t.Fatalf("only %d items in 300 levels", total)
	}
	if n[PoisonPotion]+n[WarriorPotion] != 0 {
		t.Error("poison or warrior's potions on depth 1")
	}
	w, all := 0, 0
	for _, s := range testData.ItemSpawns {
		all += s.WeightAt(1)
		if s.ID == string(HealthPotion) {
			w = s.WeightAt(1)
		}
	}
	want := float64(w) / float64(all)
	if f := float64(n[HealthPotion]) / float64(total); f < want-0.05 || f > want+0.05 {
		t.Errorf("health potions %.2f of items, want about %.2f", f, want)
	}
}

func orc() content.Monster {
	k, _ := content.Default().Monster("orc")
	return k
}

func TestAThrownItemStopsBeforeAWallAndHitsTheFirstMonsterInItsWay(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	g.s.Map.Set(world.Pos{X: 5, Y: 2}, world.Wall)
	g.updateFOV()
	give(g, FireballScroll)
	mustApply(t, g, Throw(0, world.Pos{X: 5, Y: 2})) // into the wall
	if it := g.Items(); len(it) != 1 || it[0].Pos != (world.Pos{X: 4, Y: 2}) {
		t.Fatalf("items after throwing at a wall: %+v, want the scroll at (4,2)", it)
	}
	g.s.Actors = append(g.s.Actors, newMonster(orc(), world.Pos{X: 4, Y: 4}))
	g.s.Actors[1].HP = 100
	give(g, PoisonPotion)
	mustApply(t, g, Throw(0, world.Pos{X: 6, Y: 6})) // the orc stands on the way
	if !g.s.Actors[1].Has(EffectPoison) {
		t.Error("the orc in the potion's path was not hit")
	}
}

func TestEffectsTickOnTheTurnTheStairsTake(t *testing.T) {
	g := New(42, testData)
	g.s.Actors[0].Pos = stairs(t, g)
	give(g, PoisonPotion)
	mustApply(t, g, Use(0, world.Pos{}))
	left := g.Player().Effects[0].TurnsLeft
	mustApply(t, g, Descend())
	if got := g.Player().Effects[0].TurnsLeft; got != left-1 {
		t.Errorf("poison turns left %d → %d across the stairs, want one less", left, got)
	}
}

// The tester's bug: a dart could not be thrown over deep water ("There is
// no room to throw that way."), while the goblin shaman's bolts crossed
// it. Water blocks walking, not flight: both fly over it, and a wall stops
// both.
func TestThrownItemsAndMonsterShotsBothFlyOverDeepWaterAndNeitherThroughWalls(t *testing.T) {
	setup := func(between world.Tile) *Game {
		g := arena("orc")
		g.s.Actors[1].Pos = world.Pos{X: 5, Y: 2}
		for x := 3; x <= 4; x++ {
			g.s.Map.Set(world.Pos{X: x, Y: 2}, between)
		}
		g.updateFOV()
		give(g, Dart)
		return g
	}
	g := setup(world.DeepWater)
	if !g.clearShot(g.s.Actors[1].Pos, g.player().Pos) {
		t.Error("a monster's shot does not cross deep water")
	}
	hp := g.s.Actors[1].HP
	mustApply(t, g, Throw(0, g.s.Actors[1].Pos))
	if g.s.Actors[1].HP >= hp {
		t.Errorf("the dart thrown over deep water did not hit the orc: %q", lastMsg(g))
	}
	// Aimed at the water itself, it sinks there.
	g = setup(world.DeepWater)
	mustApply(t, g, Throw(0, world.Pos{X: 4, Y: 2}))
	if len(g.Items()) != 0 || !strings.Contains(g.Message(g.LogLen()-1).Text, "sinks") {
		t.Errorf("a dart thrown into deep water: floor %+v, %q", g.Items(), g.Message(g.LogLen()-1).Text)
	}
	g = setup(world.Wall)
	if g.clearShot(g.s.Actors[1].Pos, g.player().Pos) {
		t.Error("a monster's shot flies through a wall")
	}
	// A pillar on the first tile of a throw's line, its target in sight
	// round it: the throw is refused.
	g = setup(world.Floor)
	to := world.Pos{X: 4, Y: 3}
	g.s.Map.Set(world.Line(g.player().Pos, to)[0], world.Stalagmite)
	g.updateFOV()
	if !g.visible(to) {
		t.Fatalf("%v is out of sight", to)
	}
	refused(t, g, Throw(0, to), "There is no room to throw that way.")
}

// Three testers found a health potion's flat 10 HP little at 110 max HP
// (a level-up of Constitution gives 20): it heals a fifth of max HP
// (balance.json's health_potion_percent) when that is more.
func TestAHealthPotionHealsAShareOfMaxHPLateInTheGame(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, HealthPotion)
	g.s.Actors[0].MaxHP, g.s.Actors[0].HP = 120, 50
	mustApply(t, g, Use(0, world.Pos{}))
	want := 120 * testData.Balance.HealthPotionPercent / 100
	if testData.Balance.HealthPotionPercent != 20 || g.Player().HP != 50+want || lastMsg(g) != fmt.Sprintf("You recover %d HP!", want) {
		t.Errorf("at 50 of 120 HP a potion (%d%%) healed to %d (%q), want %d", testData.Balance.HealthPotionPercent,
			g.Player().HP, lastMsg(g), 50+want)
	}
}

// A tester could not tell when haste ended: haste and telepathy say when
// they wear off, as the warrior's potion and poison do.
func TestHasteAndTelepathySayWhenTheyWearOff(t *testing.T) {
	for _, c := range []struct {
		kind  ItemKind
		turns int
		says  string
	}{
		{HastePotion, HasteTurns, "You feel yourself slow down."},
		{TelepathyPotion, TelepathyTurns, "Your mind closes: you no longer sense the monsters."},
	} {
		g := arena("orc")
		g.s.Actors = g.s.Actors[:1]
		give(g, c.kind)
		mustApply(t, g, Use(0, world.Pos{}))
		for range c.turns + 1 {
			mustApply(t, g, Wait())
		}
		if log := lastMessages(g, 0); !strings.Contains(log, c.says) {
			t.Errorf("%s: after %d turns the log reads:\n%s", c.kind, c.turns+1, log)
		}
	}
}
