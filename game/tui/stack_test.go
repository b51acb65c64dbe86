package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
)

func TestIdenticalItemsShareALetterAndUsingOneTakesOne(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withPack(t, m.game, []game.ItemKind{game.HealthPotion, game.FireballScroll,
		game.HealthPotion, game.ConfusionScroll, game.HealthPotion}))
	press(m, "i")
	s := plain(m)
	for _, want := range []string{"(a) 3 health potions", "(b) fireball scroll", "(c) confusion scroll", "5 of 26 items"} {
		if !strings.Contains(s, want) {
			t.Errorf("the pack does not show %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "(d)") {
		t.Errorf("more letters than stacks:\n%s", s)
	}
	press(m, "esc")
	press(m, "q")
	if s := plain(m); !strings.Contains(s, "(a) 3 health potions") || strings.Contains(s, "scroll") {
		t.Errorf("the quaff menu:\n%s", s)
	}
	press(m, "esc")
	press(m, "d")
	press(m, "a") // drop one potion from the stack
	if inv := m.game.Inventory(); len(inv) != 4 || m.game.Turn() != 1 {
		t.Fatalf("dropping from a stack of 3: pack of %d, turn %d", len(inv), m.game.Turn())
	}
	press(m, "d")
	press(m, "c") // the confusion scroll keeps its letter
	kinds := map[game.ItemKind]int{}
	for _, it := range m.game.Inventory() {
		kinds[it.Kind]++
	}
	if kinds[game.HealthPotion] != 2 || kinds[game.FireballScroll] != 1 || kinds[game.ConfusionScroll] != 0 {
		t.Errorf("after dropping a potion and the confusion scroll: %v", kinds)
	}
	press(m, "i")
	if s := plain(m); !strings.Contains(s, "(a) 2 health potions") || !strings.Contains(s, "3 of 26 items") {
		t.Errorf("the pack after two drops:\n%s", s)
	}
}

func TestAFullPackOfStacksFitsTheSmallestTerminal(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withPack(t, m.game, fullPack()))
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	press(m, "i")
	seen := map[string]bool{}
	for range 8 { // every page (26 kinds, four to a page at 40x12)
		for _, l := range strings.Split(plain(m), "\n") {
			if i := strings.Index(l, "("); i >= 0 && strings.Contains(l, ")") {
				seen[strings.TrimRight(strings.Trim(l[i:], " │"), " ")] = true
			}
		}
		m.Update(tea.KeyPressMsg{Code: tea.KeyPgDown})
	}
	// 26 items of every kind in turn: each stack is listed under its letter.
	var wants []string
	for _, st := range m.game.Stacks() {
		wants = append(wants, fmt.Sprintf("(%c) %s", st.Letter, packLabel(m.game, st, 40-4-4)))
	}
	if len(wants) != min(len(game.ItemKinds()), game.InventorySize) {
		t.Fatalf("a pack of every kind makes %d stacks", len(wants))
	}
	for _, want := range wants {
		if !seen[want] {
			t.Errorf("paging through a full pack at 40x12 never shows %q; saw %v", want, seen)
		}
	}
	if s := plain(m); !strings.Contains(s, "26/26 items") {
		t.Errorf("the footer does not say the pack is full:\n%s", s)
	}
}

// TestThePackSaysWhatGearGives: equipment in the pack names its attack or
// defense and its trade-offs, so two weapons can be compared before either
// is put on (the tester's rapier and sword).
func TestThePackSaysWhatGearGives(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withPack(t, m.game, []game.ItemKind{game.Rapier, game.WarAxe}))
	press(m, "i")
	s := plain(m)
	for _, want := range []string{"(a) rapier [atk +2, dodge +10%]", "(b) war axe [atk +6, hit -20%]"} {
		if !strings.Contains(s, want) {
			t.Errorf("the pack does not show %q:\n%s", want, s)
		}
	}
}

// Testers' worn plate mail said nothing of what it gives where leather
// armour said [def +1] (the whole did not fit the box), and two striking
// wands stacked as "2 striking wands" hid their charges.
func TestWornGearAndStackedWandsSayWhatTheyHold(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	g := withPack(t, m.game, []game.ItemKind{game.PlateMail, game.StrikingWand, game.StrikingWand})
	adopt(t, m, editSave(t, g, func(state map[string]any) {
		inv := state["Inventory"].([]any)
		inv[0].(map[string]any)["Worn"] = true
		inv[1].(map[string]any)["Charges"] = 3
		inv[2].(map[string]any)["Charges"] = 3
	}))
	press(m, "i")
	s := plain(m)
	for _, want := range []string{"plate mail (worn) [def +4, dodge -10%, noise +3]", "2 striking wands (3 each)"} {
		if !strings.Contains(s, want) {
			t.Errorf("the pack does not show %q:\n%s", want, s)
		}
	}
}
