package game

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"slices"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

func TestIdenticalItemsStackInTheOrderTheyCameAndCommandsTakeOne(t *testing.T) {
	g := New(1, testData)
	for _, k := range []ItemKind{HealthPotion, FireballScroll, HealthPotion, PoisonPotion, HealthPotion} {
		g.addToPack(Item{Kind: k})
	}
	got := g.Stacks()
	want := []Stack{{HealthPotion, []int{0, 2, 4}, 'a'}, {FireballScroll, []int{1}, 'b'}, {PoisonPotion, []int{3}, 'c'}}
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

// letters returns the pack's stacks as "letter kind×count" lines.
func letters(g *Game) []string {
	var out []string
	for _, st := range g.Stacks() {
		out = append(out, fmt.Sprintf("%c %s×%d", st.Letter, st.Kind, st.Count()))
	}
	return out
}

// The tester's bug: the last potion of 'b' drunk, every later letter moved
// up one, and "q e" hit the wrong item. As in NetHack, a letter stays with
// its item while it is in the pack; a new item takes the first free letter,
// or its stack's letter.
func TestALetterStaysWithItsItemWhenAStackBeforeItRunsOut(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, HealthPotion, PoisonPotion, FireballScroll, HealthPotion, Dart)
	if got, want := letters(g), []string{"a health potion×2", "b poison potion×1", "c fireball scroll×1", "d dart×1"}; !slices.Equal(got, want) {
		t.Fatalf("pack %v, want %v", got, want)
	}
	b, _ := g.Stack('b')
	mustApply(t, g, Use(b.Slot(), world.Pos{})) // the last poison potion
	if got, want := letters(g), []string{"a health potion×2", "c fireball scroll×1", "d dart×1"}; !slices.Equal(got, want) {
		t.Fatalf("after drinking b: %v, want %v", got, want)
	}
	if _, ok := g.Stack('b'); ok {
		t.Error("b still names a stack")
	}
	if d, ok := g.Stack('d'); !ok || d.Kind != Dart {
		t.Errorf("d is %+v, want the dart", d)
	}
	// A new kind takes the first free letter; one more of a stack its letter.
	p := g.Player().Pos
	g.s.Items = []Item{{Kind: Sword, Pos: p}, {Kind: FireballScroll, Pos: p}}
	mustApply(t, g, PickUp())
	mustApply(t, g, PickUp())
	if got, want := letters(g), []string{"a health potion×2", "b sword×1", "c fireball scroll×2", "d dart×1"}; !slices.Equal(got, want) {
		t.Fatalf("after picking up a fireball scroll and a sword: %v, want %v", got, want)
	}
	// Wearing the sword keeps its letter; the letters survive a save.
	sw, _ := g.Stack('b')
	mustApply(t, g, Use(sw.Slot(), world.Pos{}))
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := letters(back), []string{"a health potion×2", "b sword×1", "c fireball scroll×2", "d dart×1"}; !slices.Equal(got, want) {
		t.Errorf("after wearing the sword, saved and loaded: %v, want %v", got, want)
	}
}

// An item of a stack that changes (worn, zapped, enchanted) no longer
// stacks with the rest: it leaves for the first free letter, and the rest
// keep theirs.
func TestAnItemThatNoLongerStacksLeavesForTheFirstFreeLetter(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, Dagger, Dagger, HealthPotion)
	a, _ := g.Stack('a')
	mustApply(t, g, Use(a.Slot(), world.Pos{}))
	if got, want := letters(g), []string{"a dagger×1", "b health potion×1", "c dagger×1"}; !slices.Equal(got, want) {
		t.Fatalf("after wearing one of two daggers: %v, want %v", got, want)
	}
	if c, _ := g.Stack('c'); !g.s.Inventory[c.Slot()].Worn {
		t.Error("the dagger in hand is not c")
	}
}

// A save from before letters loads with them given in the order the pack
// listed its stacks then: the letters its player saw.
func TestASaveWithoutLettersLoadsWithTheLettersItsPlayerSaw(t *testing.T) {
	g := arena("orc")
	give(g, HealthPotion, FireballScroll, HealthPotion, Dart)
	blob, _ := g.Encode()
	var body map[string]any
	if err := json.Unmarshal(blob[10:], &body); err != nil {
		t.Fatal(err)
	}
	for _, it := range body["State"].(map[string]any)["Inventory"].([]any) {
		delete(it.(map[string]any), "Letter")
	}
	out, _ := json.Marshal(body)
	head := append([]byte(nil), blob[:10]...)
	binary.BigEndian.PutUint32(head[6:], crc32.ChecksumIEEE(out))
	old := append(head, out...)
	if bytes.Contains(old, []byte(`"Letter"`)) {
		t.Fatal("the old save still has letters")
	}
	back, err := Decode(old, testData)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := letters(back), []string{"a health potion×2", "b fireball scroll×1", "c dart×1"}; !slices.Equal(got, want) {
		t.Errorf("an old save's pack: %v, want %v", got, want)
	}
}
