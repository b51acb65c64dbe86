package tui

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// drive delivers the steps of the trip under way, as the Bubble Tea
// program would when each tick fires, until the trip stops; it returns how
// many steps it delivered. Every step but the last must ask for the next.
func drive(t *testing.T, m *Model) int {
	t.Helper()
	for n := 0; ; n++ {
		s, ok := m.scr.(*playScreen)
		if !ok || s.trip == nil {
			return n
		}
		if n > 5000 {
			t.Fatal("a trip went on for 5000 steps")
		}
		if _, cmd := m.Update(tripStep{s.trip.id}); cmd == nil && s.trip != nil {
			t.Fatal("a trip goes on but asked for no next step")
		}
	}
}

// note is the play screen's grey line.
func note(m *Model) string {
	if s, ok := m.scr.(*playScreen); ok {
		return s.note
	}
	return ""
}

// exploreAll presses x until auto-explore says it is done, delivering each
// trip's steps, and returns how many times x was pressed. No monster
// arrives meanwhile (noArrivals).
func exploreAll(t *testing.T, m *Model) int {
	t.Helper()
	items := 0
	for presses := 1; presses < 200; presses++ {
		noArrivals(t, m)
		press(m, "x")
		drive(t, m)
		if strings.HasPrefix(note(m), "You stop: you see the ") {
			items++
		}
		if strings.HasPrefix(note(m), "Explored everything you can reach.") {
			if items == 0 {
				t.Error("no item coming into view ever stopped exploring")
			}
			return presses
		}
	}
	t.Fatalf("still exploring after 200 presses of x; last note %q", note(m))
	return 0
}

// stairsOf returns where g's down stairs are.
func stairsOf(t *testing.T, g *game.Game) world.Pos {
	w, h := g.Size()
	for y := range h {
		for x := range w {
			if p := (world.Pos{X: x, Y: y}); g.Tile(p) == world.DownStairs {
				return p
			}
		}
	}
	t.Fatal("no stairs on the level")
	return world.Pos{}
}

func TestTravelWithNoStairsSeenSaysSo(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	if m.game.Explored(stairsOf(t, m.game)) {
		t.Fatal("seed 7 shows the stairs at once; pick another seed")
	}
	press(m, "_")
	if n := note(m); n != "You have not seen any stairs down yet." || m.game.Turn() != 0 {
		t.Errorf("_ with no stairs seen: note %q, turn %d", n, m.game.Turn())
	}
	press(m, ">")
	if n := note(m); n != "There are no stairs here." || m.game.Turn() != 0 {
		t.Errorf("> with no stairs seen: note %q, turn %d", n, m.game.Turn())
	}
}

func TestTravelTakesTheShortestKnownWalkToTheStairsAndEveryStepSurvivesACrash(t *testing.T) {
	st := newFakeStore()
	m := newModel(t, st, 7)
	press(m, "enter")
	adopt(t, m, withoutMonsters(t, m.game))
	exploreAll(t, m)
	g := m.game
	stairs := stairsOf(t, g)
	if !g.Explored(stairs) || g.Player().Pos == stairs {
		t.Fatalf("after exploring: stairs seen %v, player on them %v", g.Explored(stairs), g.Player().Pos == stairs)
	}
	known := g.KnownMap()
	d := world.NewDistanceMap(known.W, known.H)
	d.Compute(known, stairs, world.Unreached)
	want := int(d.At(g.Player().Pos))
	turn := g.Turn()
	press(m, ">") // off the stairs, > travels too
	steps := 1 + drive(t, m)
	if g.Player().Pos != stairs || g.Turn()-turn != want {
		t.Errorf("travel took %d turns (%d steps) to %v; want %d turns to the stairs at %v", g.Turn()-turn, steps, g.Player().Pos, want, stairs)
	}
	if s := plain(m); !strings.Contains(s, "There are stairs down here.") {
		t.Errorf("no word of the stairs on arrival:\n%s", s)
	}
	// The server dies here: every step was journaled as it was drawn.
	shown, _ := g.Encode()
	m2 := newModel(t, st, 99)
	press(m2, "enter")
	if got, _ := m2.game.Encode(); !bytes.Equal(got, shown) {
		t.Errorf("the resumed game differs from the screen at the crash (turn %d vs %d)", m2.game.Turn(), g.Turn())
	}
	press(m, ">")
	if m.game.Depth() != 2 {
		t.Error("> on the stairs after travel did not go down")
	}
}

func TestExploringStopsWhenAMonsterComesIntoView(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	if _, seen := monsterInView(m.game); seen {
		t.Fatal("seed 7 starts with a monster in view; pick another seed")
	}
	for range 100 {
		press(m, "x")
		drive(t, m)
		if a, seen := monsterInView(m.game); seen {
			if want := "You stop: the " + a.Name + " comes into view ("; !strings.HasPrefix(note(m), want) || !strings.Contains(note(m), "tiles") && !strings.Contains(note(m), "tile ") {
				t.Errorf("stopped with note %q, want %q and where it is", note(m), want)
			}
			if chebyshev(m.game.Player().Pos, a.Pos) > farMonster {
				continue // far off and named now: it blocks nothing (TestAFarMonsterThatComesNearerStopsATrip)
			}
			turn := m.game.Turn()
			press(m, "x")
			if n := note(m); !strings.HasPrefix(n, "You cannot explore with the ") || m.game.Turn() != turn {
				t.Errorf("x with a monster in view: note %q, %d turns", n, m.game.Turn()-turn)
			}
			press(m, "_")
			if n := note(m); !strings.HasPrefix(n, "You cannot travel with the ") && n != "You have not seen any stairs down yet." {
				t.Errorf("_ with a monster in view: note %q", n)
			}
			return
		}
		if strings.HasPrefix(note(m), "Explored everything you can reach.") {
			break
		}
	}
	t.Fatal("explored seed 7 without meeting a monster")
}

func TestExploringSeesTheWholeLevelThenSaysSo(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withoutMonsters(t, m.game))
	start := m.game.Player().Pos
	presses := exploreAll(t, m)
	g := m.game
	w, h := g.Size()
	lvl := world.NewMap(w, h)
	for y := range h {
		for x := range w {
			p := world.Pos{X: x, Y: y}
			lvl.Set(p, g.Tile(p))
		}
	}
	d := world.NewDistanceMap(w, h)
	d.Compute(lvl, start, world.Unreached)
	for y := range h {
		for x := range w {
			if p := (world.Pos{X: x, Y: y}); d.At(p) != world.Unreached && !g.Explored(p) {
				t.Errorf("%v can be walked to but was never seen", p)
			}
		}
	}
	turn := g.Turn()
	press(m, "x")
	if !strings.HasPrefix(note(m), "Explored everything you can reach.") || g.Turn() != turn {
		t.Errorf("x on an explored level: note %q, %d turns", note(m), g.Turn()-turn)
	}
	t.Logf("seed 247 explored in %d turns, x pressed %d times", turn, presses)
}

// A key stops a trip and says so: testers read a bare "You stop." as a
// limit of explore.
func TestAKeyStopsATripAndDoesNothingElse(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withoutMonsters(t, m.game))
	press(m, "x")
	s := m.scr.(*playScreen)
	if s.trip == nil || m.game.Turn() != 1 {
		t.Fatalf("x did not start exploring: turn %d, note %q", m.game.Turn(), s.note)
	}
	id := s.trip.id
	m.Update(tripStep{id})
	at, turn := m.game.Player().Pos, m.game.Turn()
	press(m, "l")
	if s.trip != nil || s.note != "You stop: you pressed a key." || m.game.Turn() != turn || m.game.Player().Pos != at {
		t.Errorf("l during a trip: trip %v, note %q, %d turns, moved %v", s.trip != nil, s.note, m.game.Turn()-turn, m.game.Player().Pos != at)
	}
	// The step the program had already asked for arrives late: it does nothing.
	if _, cmd := m.Update(tripStep{id}); cmd != nil || m.game.Turn() != turn {
		t.Errorf("a late step moved the player: %d turns", m.game.Turn()-turn)
	}
	// A key after the stop plays as usual.
	m.Update(tea.KeyPressMsg{Code: 'l', Text: "l"})
	if m.game.Turn() == turn && s.note == "" {
		t.Error("the key after a stop did nothing")
	}
}

// TestPoisonDoesNotStopATripEveryStep: the HP poison takes each turn is
// expected; a trip goes on (a tester saw "you are hurt" on every step
// for 20 turns) until something else stops it or HP runs low.
func TestPoisonDoesNotStopATripEveryStep(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withPack(t, withoutMonsters(t, m.game), []game.ItemKind{game.PoisonPotion}))
	press(m, "q")
	press(m, "a") // poisoned: a point of HP each turn, no message
	hp, turn := m.game.Player().HP, m.game.Turn()
	press(m, "x")
	drive(t, m)
	if n := note(m); n == "You stop: you are hurt." || m.game.Turn() < turn+2 || m.game.Player().HP >= hp {
		t.Errorf("poisoned, x went %d turns, HP %d → %d, note %q; want several steps", m.game.Turn()-turn, hp, m.game.Player().HP, n)
	}
}

// TestABatInViewStopsNothing: bats flee and never attack, so one in view
// neither refuses explore nor stops a trip (a tester saw "You cannot
// explore with the bat in view" again and again on depth 3).
func TestABatInViewStopsNothing(t *testing.T) {
	m, _ := exploreToAMonster(t, 7)
	// The same game, with every monster a herbivore (a bat's AI).
	bats := editSave(t, m.game, func(state map[string]any) {
		for _, a := range state["Actors"].([]any)[1:] {
			a.(map[string]any)["AI"] = float64(game.AIHerbivore)
		}
	})
	adopt(t, m, bats)
	m.scr = newPlay()
	if a, seen := monsterInView(m.game); seen {
		t.Errorf("a herbivore counts as a monster in view: %s", a.Name)
	}
	turn := m.game.Turn()
	press(m, "x")
	drive(t, m)
	if n := note(m); strings.HasPrefix(n, "You cannot explore") || m.game.Turn() == turn {
		t.Errorf("explore with only herbivores in view: note %q, %d turns", n, m.game.Turn()-turn)
	}
}

// TestExploreFetchesTheItemsItHasSeen: x walks to each item seen (the game
// says "You see … here." and the player may pick it up), and one stood on
// and left is not fetched again; when done, what is left is named (a
// tester found explore only named the items when the level was done).
func TestExploreFetchesTheItemsItHasSeen(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	adopt(t, m, withoutMonsters(t, m.game))
	stood := map[world.Pos]int{}
	done := false
	for range 300 {
		press(m, "x")
		stood[m.game.Player().Pos]++
		for s, _ := m.scr.(*playScreen); s != nil && s.trip != nil; s, _ = m.scr.(*playScreen) {
			m.Update(tripStep{s.trip.id})
			stood[m.game.Player().Pos]++
		}
		if strings.HasPrefix(note(m), "Explored everything") {
			done = true
			break
		}
	}
	if !done {
		t.Fatalf("still exploring after 300 presses: note %q", note(m))
	}
	g := m.game
	if len(g.Items()) == 0 {
		t.Fatal("seed 247 has no item left on depth 1")
	}
	for _, it := range g.Items() {
		if g.Explored(it.Pos) && stood[it.Pos] == 0 && !g.KnownMap().At(it.Pos).Trap() {
			t.Errorf("the %s at %v was seen but explore never went to it", it.Kind, it.Pos)
		}
	}
	if n := note(m); !strings.Contains(n, "Items left: ") {
		t.Errorf("explore done with items left: note %q", n)
	}
	turn := g.Turn()
	press(m, "x") // every item stood on and left: nothing to fetch
	if g.Turn() != turn || !strings.HasPrefix(note(m), "Explored everything") {
		t.Errorf("x after all was fetched: %d turns, note %q", g.Turn()-turn, note(m))
	}
}

// TestAFleeingMonsterInViewIsNamedOnceThenBlocksNothing: a coward running
// away in view stopped every x ("You cannot explore with the goblin in
// view"); it is named once, then x explores.
func TestAFleeingMonsterInViewIsNamedOnceThenBlocksNothing(t *testing.T) {
	m, foe := exploreToAMonster(t, 7)
	// The same game, with every monster a hurt coward, fleeing.
	fleeing := editSave(t, m.game, func(state map[string]any) {
		for _, a := range state["Actors"].([]any)[1:] {
			a.(map[string]any)["AI"] = float64(game.AICoward)
			a.(map[string]any)["Fleeing"] = true
			a.(map[string]any)["HP"] = float64(1)
		}
	})
	adopt(t, m, fleeing)
	m.scr = newPlay()
	press(m, ".") // it runs off: next to the player, even a coward fights
	press(m, ".")
	moved := 0
	for range 3 {
		turn := m.game.Turn()
		press(m, "x")
		drive(t, m)
		if m.game.Turn() > turn {
			moved++
		}
	}
	if moved < 2 {
		t.Errorf("x with only a fleeing %s in view explored on %d presses of 3; last note %q", foe.Name, moved, note(m))
	}
}

// TestATripNeverStepsOnAKnownTrap: walled in by known teleport traps, x and
// travel to the look cursor refuse and say which trap is in the way
// (a tester had four teleports in 120 turns of x); travel to the trap
// itself goes there.
func TestATripNeverStepsOnAKnownTrap(t *testing.T) {
	m := newModel(t, newFakeStore(), 247)
	press(m, "enter")
	g := withoutMonsters(t, m.game)
	pl := g.Player().Pos
	var traps []world.Pos
	adopt(t, m, editSave(t, g, func(state map[string]any) {
		mp := state["Map"].(map[string]any)
		tiles, err := base64.StdEncoding.DecodeString(mp["Tiles"].(string))
		if err != nil {
			t.Fatal(err)
		}
		w := int(mp["W"].(float64))
		for _, d := range world.Directions8 {
			q := pl.Add(d.X, d.Y)
			if world.Tile(tiles[q.Y*w+q.X]).Walkable() {
				tiles[q.Y*w+q.X] = byte(world.TeleportTrap)
				traps = append(traps, q)
			}
		}
		mp["Tiles"] = base64.StdEncoding.EncodeToString(tiles)
	}))
	if len(traps) == 0 {
		t.Fatal("no floor round the start of seed 247")
	}
	press(m, "x")
	if n := note(m); !strings.HasPrefix(n, "The only known way on is over the teleport trap (1 tile ") || m.game.Turn() != 0 {
		t.Errorf("x walled in by traps: note %q, %d turns", n, m.game.Turn())
	}
	s := m.scr.(*playScreen)
	far := traps[0].Add(traps[0].X-pl.X, traps[0].Y-pl.Y) // the tile past the first trap
	if _, _, ok := game.Route(m.game.KnownMap(), pl, []world.Pos{far}); !ok {
		t.Fatalf("no known walk to %v at all", far)
	}
	s.travelTo(m, far)
	drive(t, m)
	if n := note(m); !strings.HasPrefix(n, "The only known way on is over the teleport trap") || m.game.Turn() != 0 {
		t.Errorf("travel past the traps: note %q, %d turns", n, m.game.Turn())
	}
	s.travelTo(m, traps[0])
	drive(t, m)
	if m.game.Turn() != 1 || !strings.Contains(plain(m), "You feel a wrenching sensation!") {
		t.Errorf("travel onto the trap itself: %d turns, screen:\n%s", m.game.Turn(), plain(m))
	}
}

// TestAFarMonsterThatComesNearerStopsATrip: a hunting monster 6 or more
// tiles off that keeps its distance blocks no trip once named; one that
// steps nearer stops it at once.
func TestAFarMonsterThatComesNearerStopsATrip(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	for range 100 {
		press(m, "x")
		drive(t, m)
		if _, seen := monsterInView(m.game); seen {
			break
		}
	}
	g := m.game
	foe, seen := monsterInView(g)
	if !seen {
		t.Fatal("no monster came into view on seed 7")
	}
	pl := g.Player().Pos
	// Move it to a free floor tile in view 6..8 tiles off.
	var at world.Pos
	found := false
	w, h := g.Size()
	for y := range h {
		for x := range w {
			p := world.Pos{X: x, Y: y}
			if d := chebyshev(pl, p); !found && d >= 6 && d <= 8 && g.Visible(p) && g.Tile(p) == world.Floor {
				at, found = p, true
			}
		}
	}
	if !found {
		t.Fatal("no floor in view 6..8 tiles off")
	}
	idx := -1
	for i, a := range g.Actors() {
		if i > 0 && a.Pos == foe.Pos {
			idx = i
		}
	}
	adopt(t, m, editSave(t, g, func(state map[string]any) {
		a := state["Actors"].([]any)[idx].(map[string]any)
		a["Pos"] = map[string]any{"X": float64(at.X), "Y": float64(at.Y)}
		a["Asleep"], a["Fleeing"] = false, false
	}))
	g = m.game
	s := newPlay()
	m.scr = s
	s.look(g) // named and watched where it stands
	if a, _, ok := s.threat(g, farMonster); ok {
		t.Errorf("the %s 6..8 tiles off, standing still, refuses a trip", a.Name)
	}
	// It stood a step farther off at the last look: it came nearer.
	for k := range s.watched {
		s.watched[k] = at.Add(sign(at.X-pl.X), sign(at.Y-pl.Y))
	}
	if why, stop := s.monsterStops(g, farMonster); !stop || !strings.HasPrefix(why, "You stop: the "+foe.Name+" comes nearer (") {
		t.Errorf("a monster that came nearer: stop %v, note %q", stop, why)
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// exploreToAMonster starts a game of seed and presses x until a monster is
// in view, returning the model and the monster; the test fails if none
// comes into view in 100 presses.
func exploreToAMonster(t *testing.T, seed uint64) (*Model, game.Actor) {
	t.Helper()
	m := newModel(t, newFakeStore(), seed)
	press(m, "enter")
	for range 100 {
		press(m, "x")
		drive(t, m)
		if foe, seen := monsterInView(m.game); seen {
			return m, foe
		}
	}
	t.Fatalf("no monster came into view on seed %d", seed)
	return nil, game.Actor{}
}

// The tester's stairs seen across deep water, with no known walk to them:
// > said "There are no stairs here." and _ "You have not seen any stairs
// down yet." Both say there is no known way to the stairs seen.
func TestStairsSeenWithNoKnownWaySaySo(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	st := stairsOf(t, m.game)
	if m.game.Explored(st) {
		t.Fatal("seed 7 shows the stairs at once; pick another seed")
	}
	w, _ := m.game.Size()
	adopt(t, m, editSave(t, m.game, func(state map[string]any) {
		state["Map"].(map[string]any)["Explored"].([]any)[st.Y*w+st.X] = true
	}))
	for _, k := range []string{">", "_"} {
		turn := m.game.Turn()
		press(m, k)
		if n := note(m); n != "You know no way to the stairs down you have seen." || m.game.Turn() != turn {
			t.Errorf("%s with the stairs seen and no known way: note %q, turn %d", k, n, m.game.Turn())
		}
	}
}

// TestWhereNamesTheNearestOfEightCompassPoints: "5 tiles north-west" for a
// monster one column west and five rows north sent the tester's eyes the
// wrong way. The direction is the nearest of the eight
// points of the compass; the distance is in steps (diagonals count one).
func TestWhereNamesTheNearestOfEightCompassPoints(t *testing.T) {
	at := world.Pos{X: 10, Y: 10}
	for _, c := range []struct {
		dx, dy int
		want   string
	}{
		{-1, -5, "5 tiles north"}, {1, 4, "4 tiles south"}, {-6, 1, "6 tiles west"},
		{-2, -5, "5 tiles north-west"}, {3, 3, "3 tiles south-east"}, {5, -2, "5 tiles north-east"},
		{1, -1, "1 tile north-east"}, {0, 1, "1 tile south"}, {7, 0, "7 tiles east"},
	} {
		if got := where(at, at.Add(c.dx, c.dy)); got != c.want {
			t.Errorf("where (%+d,%+d) = %q, want %q", c.dx, c.dy, got, c.want)
		}
	}
}
