package game

import (
	"slices"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
	"github.com/grotto-game/grotto/game/world"
)

// quietArena is arena without its monster: the player at (2,2) on a 10 x 10
// floor.
func quietArena() *Game {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	return g
}

func lastText(g *Game) string { return g.Message(g.LogLen() - 1).Text }

func TestASecretDoorLooksLikeWallUntilSearchingFindsIt(t *testing.T) {
	g := quietArena()
	// A wall column at x = 4 with a secret door at (4,2), right of the player at (3,2).
	for y := 1; y < 11; y++ {
		g.s.Map.Set(world.Pos{X: 4, Y: y}, world.Wall)
	}
	door := world.Pos{X: 4, Y: 2}
	g.s.Map.Set(door, world.SecretDoor)
	g.s.Actors[0].Pos = world.Pos{X: 3, Y: 2}
	g.updateFOV()
	t.Run("it is drawn and named as wall", func(t *testing.T) {
		if g.Tile(door) != world.Wall || !slices.Equal(g.Describe(door), []string{"wall"}) || g.KnownMap().At(door) != world.Wall {
			t.Errorf("the secret door shows as %v, %q", g.Tile(door), g.Describe(door))
		}
	})
	t.Run("it blocks the way like wall", func(t *testing.T) {
		if _, err := g.Apply(Move(1, 0)); err == nil {
			t.Error("the player walked into a secret door not found")
		}
	})
	t.Run("searching finds it within a few turns, and it is then walkable", func(t *testing.T) {
		turns := 0
		for g.Tile(door) == world.Wall && turns < 40 {
			if _, err := g.Apply(Search()); err != nil {
				t.Fatal(err)
			}
			turns++
		}
		if g.Tile(door) != world.Door || g.Turn() != turns {
			t.Fatalf("after %d searches (turn %d) the door is %v", turns, g.Turn(), g.Tile(door))
		}
		found := false
		for _, m := range g.Messages(0) {
			found = found || m.Text == "You find a hidden door!"
		}
		if !found {
			t.Error("no message said the door was found")
		}
		if _, err := g.Apply(Move(1, 0)); err != nil || g.Player().Pos != door {
			t.Errorf("stepping into the found door: %v, at %v", err, g.Player().Pos)
		}
	})
}

func TestSearchingWithNothingHiddenSaysSoAndTakesATurn(t *testing.T) {
	g := quietArena()
	if _, err := g.Apply(Search()); err != nil || g.Turn() != 1 || lastText(g) != "You search, but find nothing." {
		t.Errorf("search: %v, turn %d, %q", err, g.Turn(), lastText(g))
	}
}

func TestATrapIsSprungOnStepAndThenShown(t *testing.T) {
	for _, c := range []struct {
		name   string
		hidden world.Tile
		check  func(t *testing.T, g *Game, before Actor)
		says   string
	}{
		{"a dart trap hurts", world.HiddenDartTrap, func(t *testing.T, g *Game, before Actor) {
			if g.Player().HP >= before.HP {
				t.Errorf("HP %d after the dart, %d before", g.Player().HP, before.HP)
			}
		}, "A dart shoots out at you for"},
		{"a poison needle poisons", world.HiddenPoisonTrap, func(t *testing.T, g *Game, _ Actor) {
			p := g.Player()
			if !p.Has(EffectPoison) {
				t.Errorf("effects %+v after the needle", p.Effects)
			}
		}, "A poisoned needle pricks you!"},
		{"a teleport trap moves the player elsewhere", world.HiddenTeleportTrap, func(t *testing.T, g *Game, _ Actor) {
			if g.Player().Pos == (world.Pos{X: 3, Y: 2}) {
				t.Error("the player was not moved")
			}
		}, "You feel a wrenching sensation!"},
		{"an alarm trap draws the monsters", world.HiddenAlarmTrap, func(t *testing.T, g *Game, _ Actor) {
			if d := g.s.Actors[1].Pos.Chebyshev(g.Player().Pos); d > 2 {
				t.Errorf("the orc is still %d tiles away", d)
			}
		}, "A loud alarm rings out!"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := quietArena()
			k, _ := testData.Monster("orc")
			g.s.Actors = append(g.s.Actors, newMonster(k, world.Pos{X: 9, Y: 9}))
			g.s.Actors[1].Vision = 0 // it sees nothing: only the alarm brings it
			g.s.Map.Set(world.Pos{X: 10, Y: 10}, world.DownStairs)
			trap := world.Pos{X: 3, Y: 2}
			g.s.Map.Set(trap, c.hidden)
			g.updateFOV()
			if g.Tile(trap) != world.Floor {
				t.Fatalf("the hidden trap shows as %v", g.Tile(trap))
			}
			before := g.Player()
			if _, err := g.Apply(Move(1, 0)); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, m := range g.Messages(0) {
				found = found || strings.HasPrefix(m.Text, c.says)
			}
			if !found {
				t.Errorf("no message %q in %+v", c.says, g.Messages(0))
			}
			c.check(t, g, before)
			if g.Tile(trap) != c.hidden.Found() || !g.Tile(trap).Trap() {
				t.Errorf("after it was sprung the trap shows as %v", g.Tile(trap))
			}
			g.s.Map.Explored[g.s.Map.Index(trap)] = true
			if names := g.Describe(trap); !strings.Contains(strings.Join(names, ","), "trap") {
				t.Errorf("look mode names the known trap %q", names)
			}
		})
	}
}

func TestSearchingFindsAHiddenTrapByName(t *testing.T) {
	g := quietArena()
	trap := world.Pos{X: 3, Y: 3}
	g.s.Map.Set(trap, world.HiddenDartTrap)
	for range 40 {
		if g.Tile(trap) != world.Floor {
			break
		}
		g.Apply(Search())
	}
	if g.Tile(trap) != world.DartTrap || !slices.ContainsFunc(g.Messages(0), func(m Message) bool { return m.Text == "You find a dart trap." }) {
		t.Errorf("the trap is %v; log %+v", g.Tile(trap), g.Messages(0))
	}
}

func TestMonstersDoNotSpringTraps(t *testing.T) {
	g := arena("orc") // the orc at (3,2) beside the player
	g.s.Map.Set(world.Pos{X: 3, Y: 2}, world.HiddenDartTrap)
	g.Apply(Wait())
	if g.s.Map.At(world.Pos{X: 3, Y: 2}) != world.HiddenDartTrap {
		t.Error("a monster standing on a trap sprung it")
	}
}

// levelWith returns the first seed from 0 whose first level has a special
// room of kind k (or none at all for k == 0), and its game.
func levelWith(t *testing.T, k mapgen.RoomKind) *Game {
	for seed := range uint64(300) {
		g := New(seed, testData)
		rooms := g.SpecialRooms()
		if k == 0 && len(rooms) == 0 || k != 0 && slices.ContainsFunc(rooms, func(r SpecialRoom) bool { return r.Kind == k.String() }) {
			return g
		}
	}
	t.Fatalf("no seed below 300 has a %v on depth 1", k)
	return nil
}

func TestTheLevelFeelingTellsWhatTheLevelHolds(t *testing.T) {
	for _, c := range []struct {
		name string
		kind mapgen.RoomKind
		want string
	}{
		{"a vault is treasure", mapgen.Vault, FeelingTreasure},
		{"a level with nothing special is quiet", 0, FeelingQuiet},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := levelWith(t, c.kind)
			if got := lastText(g); got != c.want && !(c.kind == mapgen.Vault && got == FeelingDen) {
				t.Errorf("arriving says %q, want %q", got, c.want)
			}
		})
	}
	t.Run("a den is a bad feeling, said on arriving at its depth", func(t *testing.T) {
		for seed := range uint64(300) {
			g := New(seed, testData)
			cheatTo(g, 2)
			if slices.ContainsFunc(g.SpecialRooms(), func(r SpecialRoom) bool { return r.Kind == "den" }) {
				if !slices.ContainsFunc(g.Messages(0), func(m Message) bool { return m.Text == FeelingDen }) {
					t.Errorf("seed %d: a den on depth 2 but no bad feeling: %+v", seed, g.Messages(0))
				}
				return
			}
		}
		t.Error("no den on depth 2 in 300 seeds")
	})
}

// cheatTo takes g down to depth by the stairs' own code.
func cheatTo(g *Game, depth int) {
	for g.s.Depth < depth {
		g.descend()
	}
}

func TestAVaultHoldsItemsBehindItsSecretDoor(t *testing.T) {
	g := levelWith(t, mapgen.Vault)
	for _, r := range g.SpecialRooms() {
		if r.Kind != "vault" {
			continue
		}
		items, doors := 0, 0
		for _, it := range g.s.Items {
			if it.Pos.X > r.X && it.Pos.Y > r.Y && it.Pos.X < r.X+r.W-1 && it.Pos.Y < r.Y+r.H-1 {
				items++
			}
		}
		for y := r.Y; y < r.Y+r.H; y++ {
			for x := r.X; x < r.X+r.W; x++ {
				if g.s.Map.At(world.Pos{X: x, Y: y}) == world.SecretDoor {
					doors++
				}
			}
		}
		if items == 0 || doors != 1 {
			t.Errorf("vault %+v: %d items, %d secret doors", r, items, doors)
		}
	}
}

func TestTakingOneOfferingMakesTheOthersVanish(t *testing.T) {
	g := levelWith(t, mapgen.Shrine)
	altars := altarsOf(t, g)
	g.s.Actors[0].Pos = altars[0]
	g.updateFOV()
	if _, err := g.Apply(PickUp()); err != nil {
		t.Fatal(err)
	}
	for _, it := range g.s.Items {
		if slices.Contains(altars[1:], it.Pos) {
			t.Errorf("an offering is still on the altar at %v", it.Pos)
		}
	}
	if !slices.ContainsFunc(g.Messages(0), func(m Message) bool { return strings.Contains(m.Text, "the other offerings vanish") }) {
		t.Errorf("no message of the choice: %+v", g.Messages(0))
	}
}

// The tester's bug: a shrine's offering of a bundle of darts lost the rest
// of the bundle when one dart was taken. The bundle is one offering: what
// lies on the altar taken from stays, the other altars' offerings vanish.
func TestTakingADartFromABundleOnAnAltarKeepsTheRestOfTheBundle(t *testing.T) {
	g := levelWith(t, mapgen.Shrine)
	altars := altarsOf(t, g)
	kept := g.s.Items[:0]
	for _, it := range g.s.Items {
		if it.Pos != altars[0] {
			kept = append(kept, it)
		}
	}
	g.s.Items = kept
	for range 4 {
		g.s.Items = append(g.s.Items, Item{Kind: Dart, Pos: altars[0]})
	}
	g.s.Actors[0].Pos = altars[0]
	g.updateFOV()
	if _, err := g.Apply(PickUp()); err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, it := range g.s.Items {
		if it.Pos == altars[0] && it.Kind == Dart {
			left++
		}
		if slices.Contains(altars[1:], it.Pos) {
			t.Errorf("another altar's offering is still at %v", it.Pos)
		}
	}
	if left != 3 {
		t.Errorf("%d darts of the bundle of 4 left on the altar after taking one, want 3", left)
	}
}

func TestSpecialRoomsAndHiddenTilesSurviveASave(t *testing.T) {
	g := levelWith(t, mapgen.Vault)
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.SpecialRooms(), g.SpecialRooms()) || !slices.Equal(back.s.Map.Tiles, g.s.Map.Tiles) {
		t.Error("the rooms or the hidden tiles changed through a save")
	}
	if a, b := New(g.Seed(), testData), New(g.Seed(), testData); a.StateHash() != b.StateHash() {
		t.Error("the same seed built two different first levels")
	}
}

func TestASearchIsOneByteOfHistory(t *testing.T) {
	g := quietArena()
	g.Apply(Search())
	cmds, _ := g.History()
	if len(cmds) != 1 || cmds[0] != Search() || len(appendCommand(nil, Search())) != 1 {
		t.Errorf("history %+v", cmds)
	}
}

func TestTravelWalksRoundAKnownTrap(t *testing.T) {
	g := quietArena()
	g.s.Map.Set(world.Pos{X: 9, Y: 2}, world.DownStairs)
	g.s.Map.Set(world.Pos{X: 3, Y: 2}, world.DartTrap)
	g.updateFOV()
	step, _, ok := g.TravelStep(ToStairs)
	if !ok || g.Player().Pos.Add(step.X, step.Y) == (world.Pos{X: 3, Y: 2}) {
		t.Errorf("travel steps %v onto the known trap (ok %v)", step, ok)
	}
}

// The tester's shrine bug, at its root: an altar's offering was a bundle
// of darts, so taking one left the rest. A shrine lays one item on each
// altar, darts too; and standing on an altar the player hears of it.
func TestAShrineLaysOneItemOnEachAltarAndSaysItIsAnAltar(t *testing.T) {
	d := *testData
	d.ItemSpawns = []content.Spawn{{ID: string(Dart), Weight: 1, MinDepth: 1, MaxDepth: 99}}
	found := false
	for seed := range uint64(300) {
		g := New(seed, &d)
		for i, tl := range g.s.Map.Tiles {
			if tl != world.Altar {
				continue
			}
			found = true
			p := world.Pos{X: i % g.s.Map.W, Y: i / g.s.Map.W}
			if n := len(g.itemsAt(p)); n != 1 {
				t.Fatalf("seed %d: %d items on the altar at %v, want one", seed, n, p)
			}
			// Stepping onto it: the altar is named with what lies on it.
			g.s.Actors[0].Pos = p
			g.s.Log = nil
			g.describeFloor()
			if got := lastMessages(g, 0); got != "There is an altar here; on it lies a dart.\n" {
				t.Errorf("on the altar: %q", got)
			}
		}
		if found {
			return
		}
	}
	t.Fatal("no shrine below seed 300")
}

// altarsOf returns where g's level has altars, in row-major order; a test
// fails at once when there are fewer than two (a shrine has 2–3).
func altarsOf(t *testing.T, g *Game) []world.Pos {
	t.Helper()
	var altars []world.Pos
	for i, tl := range g.s.Map.Tiles {
		if tl == world.Altar {
			altars = append(altars, world.Pos{X: i % g.s.Map.W, Y: i / g.s.Map.W})
		}
	}
	if len(altars) < 2 {
		t.Fatalf("%d altars", len(altars))
	}
	return altars
}

// A tester took one offering and walked back to another altar out of
// sight: the food ration there was still drawn and "Items left" sent them
// to it, though the game had said the offerings vanish. The player forgets
// them with the message.
func TestTheVanishedOfferingsAreNotRememberedOutOfSight(t *testing.T) {
	g := levelWith(t, mapgen.Shrine)
	altars := altarsOf(t, g)
	var far []world.Pos
	for _, a := range altars[1:] {
		g.s.Seen = append(g.s.Seen, Sighting{Pos: a, Item: Dart}) // seen before, out of sight now
		far = append(far, a)
	}
	taken := g.s.Items[g.itemsAt(altars[0])[0]]
	g.takeOffering(altars[0], taken) // as PickUp does, before the turn's new sight
	for _, s := range g.s.Seen {
		if slices.Contains(far, s.Pos) {
			t.Errorf("a vanished offering is still remembered at %v: %+v", s.Pos, s)
		}
	}
}
