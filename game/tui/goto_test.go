package tui

import (
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// TestEnterInLookModeTravelsToTheCursor: look at a known tile, press Enter
// (or _), and the player walks there along a known path, a turn a step.
func TestEnterInLookModeTravelsToTheCursor(t *testing.T) {
	for _, key := range []string{"enter", "_"} {
		t.Run("with "+key, func(t *testing.T) {
			m := newModel(t, newFakeStore(), 7)
			press(m, "enter")
			g := m.game
			start := g.Player().Pos
			known := g.KnownMap()
			// The farthest known floor the player can reach, by a walk.
			var goal world.Pos
			best := 0
			for y := range known.H {
				for x := range known.W {
					p := world.Pos{X: x, Y: y}
					if !known.Explored[known.Index(p)] || !known.Tiles[known.Index(p)].Walkable() {
						continue
					}
					if _, n, ok := game.Route(known, start, []world.Pos{p}); ok && n > best {
						goal, best = p, n
					}
				}
			}
			if best < 3 {
				t.Fatalf("seed 7 knows no floor 3 steps away")
			}
			press(m, "/")
			ts := m.scr.(*targetScreen)
			ts.moveTo(m, goal)
			turn := g.Turn()
			press(m, key)
			drive(t, m)
			if p := m.game.Player().Pos; p != goal && !strings.HasPrefix(note(m), "You stop") {
				t.Errorf("travel to %v ended at %v, note %q", goal, p, note(m))
			}
			if m.game.Turn()-turn < 3 {
				t.Errorf("travel to the cursor took %d turns", m.game.Turn()-turn)
			}
		})
	}
}

// TestExploringWhenDoneSaysWhichItemsAreLeft: items seen but not picked up
// are named, with where they lie, when nothing is left to explore.
func TestExploringWhenDoneSaysWhichItemsAreLeft(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withoutMonsters(t, m.game))
	for range 200 { // explore, leaving every item where it lies
		press(m, "x")
		drive(t, m)
		if strings.HasPrefix(note(m), "Explored everything") {
			break
		}
	}
	if len(m.game.Items()) == 0 {
		t.Fatal("seed 247 has no item on depth 1")
	}
	if n := note(m); !strings.Contains(n, "Items left: ") || !strings.Contains(n, " tiles ") && !strings.Contains(n, " tile ") {
		t.Errorf("explore done with items left on the level: note %q", n)
	}
}

// TestAFarMonsterStandingStillDoesNotBlockExploreForever: in the dark
// caverns a glowing monster is seen up to 20 tiles off; with one in view
// more than farMonster tiles away, x names it once (or the stop as it came
// into view did) and explores on. Seeded games are teleported (the admins' cheat)
// down to the first dark level.
func TestAFarMonsterStandingStillDoesNotBlockExploreForever(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		m := newModel(t, newFakeStore(), seed)
		press(m, "enter")
		g := m.game
		g.Apply(game.CheatCommand(game.CheatGod, ""))
		for i := 0; i < 12 && !g.Dark(); i++ {
			g.Apply(game.CheatCommand(game.CheatTeleport, ""))
		}
		if !g.Dark() {
			continue
		}
		adopt(t, m, g)
		for range 60 {
			g := m.game
			a, ok := monsterInView(g)
			if ok && chebyshev(g.Player().Pos, a.Pos) > farMonster {
				turn := g.Turn()
				press(m, "x") // named once (here or when it came into view), then it blocks nothing
				if n := note(m); strings.Contains(n, "x again to go on") {
					press(m, "x")
				} else if m.scr.(*playScreen).trip == nil {
					t.Fatalf("seed %d: x with a far %s in view: note %q", seed, a.Name, n)
				}
				drive(t, m)
				if m.game.Turn() == turn {
					t.Fatalf("seed %d: x again with a far %s in view did not explore: note %q", seed, a.Name, note(m))
				}
				return
			}
			if ok { // near: step away from it is not this test's; wait for it
				press(m, ".")
				continue
			}
			press(m, "x")
			drive(t, m)
			if strings.HasPrefix(note(m), "Explored everything") {
				break
			}
		}
	}
	t.Fatal("no seed of 1..40 shows a monster far off in the dark while exploring")
}

// TestItemsLeftNameUnknownKindsByAppearanceAndCountAPile: the breaker's
// "Items left: an identify scroll …" named an unidentified scroll by its
// true kind, and a pile of two darts read "a dart …, a dart …".
func TestItemsLeftNameUnknownKindsByAppearanceAndCountAPile(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	g := withoutMonsters(t, m.game)
	p := g.Player().Pos
	var at []map[string]any
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}} {
		if q := p.Add(d[0], d[1]); g.Tile(q).Walkable() {
			at = append(at, map[string]any{"X": q.X, "Y": q.Y})
		}
	}
	if len(at) < 2 {
		t.Fatal("seed 247 starts with fewer than two open tiles round the player")
	}
	g = editSave(t, g, func(state map[string]any) {
		state["Items"] = []any{
			map[string]any{"Kind": string(game.IdentifyScroll), "Pos": at[0]},
			map[string]any{"Kind": string(game.Dart), "Pos": at[1]},
			map[string]any{"Kind": string(game.Dart), "Pos": at[1]},
		}
	})
	if !g.Unidentified(game.IdentifyScroll) {
		t.Fatal("the identify scroll is known at the start")
	}
	left := itemsLeft(g)
	if strings.Contains(left, "identify") || !strings.Contains(left, game.WithArticle(g.KindName(game.IdentifyScroll, 1))) {
		t.Errorf("an unknown scroll in %q", left)
	}
	if strings.Count(left, "dart") != 1 || !strings.Contains(left, "2 darts") {
		t.Errorf("a pile of two darts in %q", left)
	}
}
