package game

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// tail returns the last n messages of the log, joined by " | ".
func tail(g *Game, n int) string {
	var out []string
	for _, m := range g.s.Log[max(0, len(g.s.Log)-n):] {
		out = append(out, m.Text)
	}
	return strings.Join(out, " | ")
}

func TestEquipmentBonusesAreTheTutorials(t *testing.T) {
	g := New(1, testData)
	for _, c := range []struct {
		kind     ItemKind
		slot     Slot
		pow, def int
	}{
		{Dagger, SlotWeapon, 2, 0}, {Sword, SlotWeapon, 4, 0},
		{LeatherArmour, SlotArmour, 0, 1}, {ChainMail, SlotArmour, 0, 3},
	} {
		slot, pow, def, ok := g.EquipOf(c.kind)
		if !ok || slot != c.slot || pow != c.pow || def != c.def || !c.kind.Wearable() {
			t.Errorf("%s: %q +%d power +%d defense (%v), want %q +%d +%d", c.kind, slot, pow, def, ok, c.slot, c.pow, c.def)
		}
	}
	if _, _, _, ok := g.EquipOf(HealthPotion); ok || HealthPotion.Wearable() {
		t.Error("a health potion can be worn")
	}
}

func TestWearingTogglesAndASecondWeaponReplacesTheFirst(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, Dagger, Sword, LeatherArmour)
	mustApply(t, g, Use(0, world.Pos{}))
	if w, ok := g.Worn(SlotWeapon); !ok || w.Kind != Dagger || g.PlayerPower() != 7 || lastMsg(g) != "You equip the dagger." {
		t.Errorf("after wearing the dagger: weapon %v %v, power %d, %q", w, ok, g.PlayerPower(), lastMsg(g))
	}
	if g.Turn() != 1 || len(g.Inventory()) != 3 {
		t.Errorf("turn %d, %d items: wearing takes a turn and keeps the item", g.Turn(), len(g.Inventory()))
	}
	mustApply(t, g, Use(1, world.Pos{}))
	inv := g.Inventory()
	if inv[0].Worn || !inv[1].Worn || g.PlayerPower() != 9 || tail(g, 2) != "You remove the dagger. | You equip the sword." {
		t.Errorf("after the sword: %+v, power %d, %q", inv, g.PlayerPower(), tail(g, 2))
	}
	mustApply(t, g, Use(2, world.Pos{}))
	if w, _ := g.Worn(SlotWeapon); w.Kind != Sword || g.PlayerDefense() != 3 || g.PlayerPower() != 9 {
		t.Errorf("armour and weapon together: weapon %v, power %d, defense %d; want sword, 9, 3", w, g.PlayerPower(), g.PlayerDefense())
	}
	mustApply(t, g, Use(1, world.Pos{}))
	if _, ok := g.Worn(SlotWeapon); ok || g.PlayerPower() != 5 || lastMsg(g) != "You remove the sword." {
		t.Errorf("after taking the sword off: power %d, %q", g.PlayerPower(), lastMsg(g))
	}
	if p := g.Player(); p.Power != 5 || p.Defense != 2 {
		t.Errorf("equipment changed the base stats: %d, %d", p.Power, p.Defense)
	}
}

// TestFightsUseTheEquipment: with a sword (+4) and chain mail (+3) an orc
// takes 5+4-0 = 9 and its blow (power 4) does nothing against 2+3.
func TestFightsUseTheEquipment(t *testing.T) {
	g := arena("orc")
	g.s.Actors[1].HP = 20
	if k, _ := testData.Monster("orc"); k.Power > PlayerDefense+3 || k.Defense != 0 {
		t.Fatalf("the test needs an orc of power ≤ 5 and defense 0, got %d and %d", k.Power, k.Defense)
	}
	give(g, Sword, ChainMail)
	mustApply(t, g, Use(0, world.Pos{}))
	mustApply(t, g, Use(1, world.Pos{}))
	hp := g.Player().HP
	for range 10 { // until the player's blow lands (blows roll to hit)
		mustApply(t, g, Move(1, 0))
		if g.s.Actors[1].HP < 20 {
			break
		}
	}
	lo, hi := DamageRange(9, 0)
	var dealt int
	fmt.Sscanf(tail(g, 2), "You attack the orc for %d hit points.", &dealt)
	if dealt < lo || dealt > hi || g.s.Actors[1].HP != 20-dealt {
		t.Errorf("messages %q, orc at %d HP; want a blow of 5+4 = 9 power, %d..%d damage", tail(g, 2), g.s.Actors[1].HP, lo, hi)
	}
	if got := tail(g, 1); got != "The orc attacks you but does no damage." && got != "The orc attacks you but misses." {
		t.Errorf("the orc's blow: %q, want none taken", got)
	}
	if g.Player().HP != hp {
		t.Errorf("player %d→%d", hp, g.Player().HP)
	}
}

func TestDroppingOrThrowingWornEquipmentTakesItOff(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, HealthPotion, Dagger, LeatherArmour)
	mustApply(t, g, Use(1, world.Pos{}))
	mustApply(t, g, Use(2, world.Pos{}))
	mustApply(t, g, Drop(1))
	if got := tail(g, 2); got != "You remove the dagger. | You dropped the dagger." {
		t.Errorf("messages %q", got)
	}
	if items := g.Items(); len(items) != 1 || items[0].Worn || g.PlayerPower() != 5 {
		t.Errorf("floor %+v, power %d; want the dagger on the floor, not worn, power 5", items, g.PlayerPower())
	}
	if inv := g.Inventory(); len(inv) != 2 || !inv[1].Worn || inv[1].Kind != LeatherArmour {
		t.Errorf("pack %+v: the armour must stay worn as its letter moves", inv)
	}
	mustApply(t, g, PickUp())
	if inv := g.Inventory(); inv[2].Worn {
		t.Error("picked-up equipment is worn")
	}
	mustApply(t, g, Throw(1, world.Pos{X: 5, Y: 2}))
	if got := tail(g, 2); got != "You remove the leather armour. | The leather armour lands on the floor." || g.PlayerDefense() != 2 {
		t.Errorf("messages %q, defense %d", got, g.PlayerDefense())
	}
}

func TestWornEquipmentSurvivesSaveAndADamagedOneIsRefused(t *testing.T) {
	g := arena("orc")
	give(g, HealthPotion, ChainMail, Dagger, Sword)
	mustApply(t, g, Use(1, world.Pos{}))
	mustApply(t, g, Use(3, world.Pos{}))
	blob, _ := g.Encode()
	h, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if h.PlayerPower() != 9 || h.PlayerDefense() != 5 {
		t.Errorf("resumed with power %d defense %d, want 9 and 5", h.PlayerPower(), h.PlayerDefense())
	}
	for name, damage := range map[string]func(*Game){
		"two weapons worn": func(g *Game) { g.s.Inventory[2].Worn = true },
		"a potion worn":    func(g *Game) { g.s.Inventory[0].Worn = true },
		"worn on the floor": func(g *Game) {
			g.s.Items = append(g.s.Items, Item{Kind: Dagger, Pos: g.Player().Pos, Worn: true})
		},
	} {
		bad, _ := Decode(blob, testData)
		damage(bad)
		b, _ := bad.Encode()
		if _, err := Decode(b, testData); !errors.Is(err, ErrCorruptSave) {
			t.Errorf("%s: Decode err = %v, want ErrCorruptSave", name, err)
		}
	}
}

func TestCheatsCanMakeEveryPieceOfEquipment(t *testing.T) {
	g := New(1, testData)
	for _, k := range []ItemKind{Dagger, Sword, LeatherArmour, ChainMail} {
		mustApply(t, g, CheatCommand(CheatCreate, k))
	}
	if inv := g.Inventory(); len(inv) != 4 || inv[3].Kind != ChainMail || inv[3].Worn {
		t.Errorf("pack %+v", inv)
	}
}

// TestGearStatsSayWhatWearingGives: the tester could compare a rapier with
// a sword, or chain mail with +3 leather, only by putting each on and
// reading the status line. The pack says it.
func TestGearStatsSayWhatWearingGives(t *testing.T) {
	g := New(1, testData)
	for _, c := range []struct {
		it   Item
		want string
	}{
		{Item{Kind: WarAxe}, "atk +6, hit -20%"},
		{Item{Kind: Rapier}, "atk +2, dodge +10%"},
		{Item{Kind: PlateMail}, "def +4, dodge -10%, noise +3"},
		{Item{Kind: LeatherArmour, Enchant: 2}, "def +3"},
		{Item{Kind: HealthPotion}, ""},
	} {
		if got := g.GearStats(c.it); got != c.want {
			t.Errorf("%s%+d: %q, want %q", c.it.Kind, c.it.Enchant, got, c.want)
		}
	}
}
