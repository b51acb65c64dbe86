package game

import (
	"slices"
	"testing"
)

func TestIdenticalItemsStackInTheOrderTheyCameAndCommandsTakeOne(t *testing.T) {
	g := New(1, testData)
	for _, k := range []ItemKind{HealthPotion, FireballScroll, HealthPotion, PoisonPotion, HealthPotion} {
		g.s.Inventory = append(g.s.Inventory, Item{Kind: k})
	}
	got := g.Stacks()
	want := []Stack{{HealthPotion, []int{0, 2, 4}}, {FireballScroll, []int{1}}, {PoisonPotion, []int{3}}}
	if len(got) != len(want) {
		t.Fatalf("stacks %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Kind != want[i].Kind || !slices.Equal(got[i].Slots, want[i].Slots) {
			t.Errorf("stack %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// Dropping from the stack of three leaves two, every stack in its place.
	if _, err := g.Apply(Drop(got[0].Slot())); err != nil {
		t.Fatal(err)
	}
	if s := g.Stacks(); len(s) != 3 || s[0].Kind != HealthPotion || s[0].Count() != 2 || s[1].Kind != FireballScroll || len(g.Inventory()) != 4 {
		t.Errorf("after dropping one potion: %+v", s)
	}
}
