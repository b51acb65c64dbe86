package game

import (
	"slices"
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// walk moves the player n steps by (dx, dy), failing on a refused step.
func walk(t *testing.T, g *Game, dx, dy, n int) {
	t.Helper()
	for range n {
		mustApply(t, g, Move(dx, dy))
	}
}

func TestAnItemSeenStaysRememberedWhereItLayUntilItsTileIsSeenAgain(t *testing.T) {
	g := hall(false, world.Pos{X: 30, Y: 5})
	potion := world.Pos{X: 33, Y: 5}
	g.s.Items = []Item{{Kind: HealthPotion, Pos: potion}}
	mustApply(t, g, Wait())
	if got := g.Remembered(); len(got) != 0 {
		t.Fatalf("remembered %+v while the potion is in view; want nothing (it is seen)", got)
	}
	walk(t, g, -1, 0, 12) // 15 tiles away: out of view
	got := g.Remembered()
	if len(got) != 1 || got[0] != (Sighting{Pos: potion, Item: HealthPotion}) {
		t.Fatalf("remembered %+v after walking away, want the health potion at %v", got, potion)
	}
	g.s.Items = nil // gone behind the player's back: the memory is not the truth
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if g, err = Decode(blob, testData); err != nil {
		t.Fatal(err)
	}
	if got := g.Remembered(); len(got) != 1 || got[0].Item != HealthPotion {
		t.Fatalf("after save and load remembered %+v, want the health potion", got)
	}
	walk(t, g, 1, 0, 12)
	if len(g.Remembered()) != 0 || len(g.s.Seen) != 0 {
		t.Errorf("the potion's tile is in view again and empty, yet remembered: %+v", g.s.Seen)
	}
}

func TestRemainsSeenStayRememberedAndAnItemPickedUpIsForgotten(t *testing.T) {
	g := hall(false, world.Pos{X: 10, Y: 5})
	rat, _ := content.Default().Monster("rat")
	g.s.Actors = append(g.s.Actors, newMonster(rat, world.Pos{X: 11, Y: 5}))
	g.s.Items = []Item{{Kind: FireballScroll, Pos: world.Pos{X: 12, Y: 5}}}
	for range 20 { // 5 power, at least 4, against a rat's 4 HP: the first blow that lands kills
		if g.s.Actors[1].Corpse {
			break
		}
		mustApply(t, g, Move(1, 0))
	}
	if a := g.s.Actors[1]; !a.Corpse {
		t.Fatal("the rat did not die")
	}
	walk(t, g, -1, 0, 8) // at (2,5): the remains 9 tiles away
	got := g.Remembered()
	want := []Sighting{
		{Pos: world.Pos{X: 11, Y: 5}, Remains: "remains of rat", Glyph: '%'},
		{Pos: world.Pos{X: 12, Y: 5}, Item: FireballScroll},
	}
	if len(got) != 2 || !slices.Contains(got, want[0]) || !slices.Contains(got, want[1]) {
		t.Fatalf("remembered %+v, want %+v", got, want)
	}
	walk(t, g, 1, 0, 10) // onto the scroll
	mustApply(t, g, PickUp())
	walk(t, g, -1, 0, 10) // at (2,5) again
	got = g.Remembered()
	if len(got) != 1 || got[0] != want[0] {
		t.Errorf("after picking up the scroll and walking away, remembered %+v; want only the remains", got)
	}
}

func TestANewLevelStartsWithNoMemoryOfThings(t *testing.T) {
	g := hall(false, world.Pos{X: 30, Y: 5})
	g.s.Items = []Item{{Kind: HealthPotion, Pos: world.Pos{X: 33, Y: 5}}}
	mustApply(t, g, Wait())
	walk(t, g, -1, 0, 12)
	if len(g.Remembered()) != 1 {
		t.Fatal("the potion is not remembered")
	}
	g.enterLevel(2)
	for _, s := range g.s.Seen {
		if !g.Visible(s.Pos) {
			t.Errorf("depth 2 remembers %+v, which the player never saw there", s)
		}
	}
}

func TestDecodeRefusesAMemoryOfThingsOffTheMap(t *testing.T) {
	g := hall(false, world.Pos{X: 30, Y: 5})
	g.s.Seen = []Sighting{{Pos: world.Pos{X: 500, Y: 5}, Item: HealthPotion}}
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(blob, testData); err == nil {
		t.Error("a save remembering a potion off the map decoded")
	}
}
