package game

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// stairs returns the down stairs of g's level.
func stairs(t testing.TB, g *Game) world.Pos {
	t.Helper()
	m := g.s.Map
	for i, tile := range m.Tiles {
		if tile == world.DownStairs {
			return world.Pos{X: i % m.W, Y: i / m.W}
		}
	}
	t.Fatal("level has no down stairs")
	return world.Pos{}
}

func TestEveryLevelConnectsStartToStairs(t *testing.T) {
	d := world.NewDistanceMap(MapWidth, MapHeight)
	for seed := range uint64(500) {
		g := New(seed, testData)
		d.Compute(g.s.Map, g.Player().Pos, world.Unreached)
		if s := stairs(t, g); d.At(s) == world.Unreached {
			t.Fatalf("seed %d: stairs at %v unreachable from start %v", seed, s, g.Player().Pos)
		}
		for _, a := range g.Actors()[1:] {
			if !g.s.Map.At(a.Pos).Walkable() {
				t.Fatalf("seed %d: %s spawned in rock at %v", seed, a.Kind, a.Pos)
			}
		}
	}
}

func TestDamageIsPowerMinusDefenseNeverNegative(t *testing.T) {
	for _, c := range []struct{ power, defense, want int }{
		{5, 0, 5}, {5, 2, 3}, {3, 2, 1}, {2, 2, 0}, {1, 4, 0},
	} {
		if got := Damage(c.power, c.defense); got != c.want {
			t.Errorf("Damage(%d, %d) = %d, want %d", c.power, c.defense, got, c.want)
		}
	}
}

// arena returns a game whose level is an open 10x10 room with the player at
// (2,2) and one monster of kind at (3,2).
func arena(kind string) *Game {
	g := New(1, testData)
	m := world.NewMap(MapWidth, MapHeight)
	for y := 1; y < 11; y++ {
		for x := 1; x < 11; x++ {
			m.Set(world.Pos{X: x, Y: y}, world.Floor)
		}
	}
	g.s.Map = m
	p := g.s.Actors[0]
	p.Pos = world.Pos{X: 2, Y: 2}
	g.s.Actors = []Actor{p}
	g.s.Items = nil
	k, _ := content.Default().Monster(kind)
	g.s.Actors = append(g.s.Actors, newMonster(k, world.Pos{X: 3, Y: 2}))
	g.buffers()
	g.updateFOV()
	return g
}

// TestBumpAttackDealsARolledBlowAndMonsterStrikesBack: each blow either
// misses, and says so, or takes a roll of DamageRange.
func TestBumpAttackDealsARolledBlowAndMonsterStrikesBack(t *testing.T) {
	g := arena("troll")
	from := g.LogLen()
	if _, err := g.Apply(Move(1, 0)); err != nil {
		t.Fatal(err)
	}
	k, _ := testData.Monster("troll")
	log := lastMessages(g, from)
	troll := g.s.Actors[1]
	lo, hi := DamageRange(PlayerPower, k.Defense)
	if lost := k.HP - troll.HP; lost == 0 && !strings.Contains(log, "You miss the troll.") || lost != 0 && (lost < lo || lost > hi) {
		t.Errorf("troll lost %d HP, want a miss or %d..%d:\n%s", lost, lo, hi, log)
	}
	lo, hi = DamageRange(k.Power, PlayerDefense)
	if lost := PlayerHP - g.Player().HP; lost == 0 && !strings.Contains(log, "The troll attacks you but misses.") || lost != 0 && (lost < lo || lost > hi) {
		t.Errorf("player lost %d HP, want a miss or %d..%d:\n%s", lost, lo, hi, log)
	}
	if g.Player().Pos != (world.Pos{X: 2, Y: 2}) {
		t.Error("attacking must not move the player")
	}
}

func TestKilledMonsterLeavesCorpseThatDoesNotBlock(t *testing.T) {
	g := arena("orc")
	for range 30 {
		if g.s.Actors[1].Corpse {
			break
		}
		g.Apply(Move(1, 0))
	}
	orc := g.s.Actors[1]
	if !orc.Corpse || orc.Blocks || orc.Glyph != '%' {
		t.Fatalf("orc after two hits: %+v, want a non-blocking corpse", orc)
	}
	if g.Kills() != 1 || g.Score() != 35 {
		t.Errorf("kills %d score %d, want 1 and 35", g.Kills(), g.Score())
	}
	if _, err := g.Apply(Move(1, 0)); err != nil || g.Player().Pos != (world.Pos{X: 3, Y: 2}) {
		t.Errorf("player should walk onto the corpse, err=%v pos=%v", err, g.Player().Pos)
	}
}

func TestPlayerDeathEndsGameWithCause(t *testing.T) {
	g := arena("troll")
	g.s.Actors[0].HP = 2
	g.s.Actors[1].HP = 1000
	var res Result
	var err error
	for range 20 { // a troll's blow that lands takes at least 4 of 2 HP
		if res, err = g.Apply(Wait()); err != nil || res.Died {
			break
		}
	}
	if err != nil || !res.Died || !g.Over() {
		t.Fatalf("res=%+v err=%v over=%v, want death", res, err, g.Over())
	}
	if !strings.HasPrefix(g.Cause(), "killed by a troll on depth 1 (it hit you for ") {
		t.Errorf("cause = %q", g.Cause())
	}
	if _, err := g.Apply(Wait()); !errors.Is(err, ErrGameOver) {
		t.Errorf("after death Apply err = %v, want ErrGameOver", err)
	}
}

func TestMonsterChasesAroundAWall(t *testing.T) {
	g := arena("orc")
	// Wall between them with a gap: orc at (6,2), wall x=4 for y 1..3, player (2,2).
	for y := 1; y <= 3; y++ {
		g.s.Map.Set(world.Pos{X: 4, Y: y}, world.Wall)
	}
	g.s.Actors[1].Pos = world.Pos{X: 6, Y: 5}
	g.updateFOV()
	start := g.s.Actors[1].Pos
	d0 := start.Chebyshev(g.Player().Pos)
	for range 3 {
		g.Apply(Wait())
	}
	if d := g.s.Actors[1].Pos.Chebyshev(g.Player().Pos); d >= d0 {
		t.Errorf("orc did not close in: distance %d -> %d", d0, d)
	}
}

func TestImpossibleCommandsCostNoTurn(t *testing.T) {
	g := arena("orc")
	before, _ := g.Encode()
	for _, c := range []Command{Move(0, -1), Descend(), Move(2, 0), {}} {
		g.s.Actors[0].Pos = world.Pos{X: 2, Y: 1} // against the top wall
		before, _ = g.Encode()
		_, err := g.Apply(c)
		var imp *Impossible
		if !errors.As(err, &imp) {
			t.Errorf("%+v: err = %v, want *Impossible", c, err)
		}
		if after, _ := g.Encode(); !bytes.Equal(before, after) {
			t.Errorf("%+v changed the game", c)
		}
	}
}

func TestDescendBuildsADeeperLevel(t *testing.T) {
	g := New(42, testData)
	g.s.Actors[0].Pos = stairs(t, g)
	res, err := g.Apply(Descend())
	if err != nil || !res.Descended || g.Depth() != 2 {
		t.Fatalf("res=%+v err=%v depth=%d", res, err, g.Depth())
	}
	if g.Score() != 100 {
		t.Errorf("score on depth 2 = %d, want 100", g.Score())
	}
}

// randomCommands returns n commands drawn from seed: mostly moves, some waits
// and descend attempts.
func randomCommands(seed uint64, n int) []Command {
	rng := rand.New(rand.NewPCG(seed, 2))
	cmds := make([]Command, n)
	for i := range cmds {
		switch r := rng.IntN(20); {
		case r == 0:
			cmds[i] = Wait()
		case r == 1:
			cmds[i] = Descend()
		default:
			d := world.Directions8[rng.IntN(8)]
			cmds[i] = Move(d.X, d.Y)
		}
	}
	return cmds
}

func play(g *Game, cmds []Command) {
	for _, c := range cmds {
		g.Apply(c)
	}
}

func TestSameSeedAndCommandsGiveTheSameGame(t *testing.T) {
	for seed := range uint64(20) {
		cmds := randomCommands(seed, 400)
		a, b := New(seed, testData), New(seed, testData)
		play(a, cmds)
		play(b, cmds)
		ea, _ := a.Encode()
		eb, _ := b.Encode()
		if !bytes.Equal(ea, eb) {
			t.Fatalf("seed %d: two plays of the same commands differ", seed)
		}
	}
	a, b := New(1, testData), New(2, testData)
	ea, _ := a.Encode()
	eb, _ := b.Encode()
	if bytes.Equal(ea, eb) {
		t.Error("different seeds gave the same game")
	}
}

func TestSaveLoadPlaysOnIdentically(t *testing.T) {
	for seed := range uint64(10) {
		cmds := randomCommands(seed, 600)
		whole := New(seed, testData)
		play(whole, cmds)

		half := New(seed, testData)
		play(half, cmds[:300])
		blob, err := half.Encode()
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := Decode(blob, testData)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		again, _ := loaded.Encode()
		if !bytes.Equal(blob, again) {
			t.Fatalf("seed %d: load changed the state", seed)
		}
		play(loaded, cmds[300:])
		ew, _ := whole.Encode()
		el, _ := loaded.Encode()
		if !bytes.Equal(ew, el) {
			t.Fatalf("seed %d: a saved and resumed game diverged from the uninterrupted one", seed)
		}
	}
}

func TestDecodeRefusesDamagedSaves(t *testing.T) {
	blob, _ := New(5, testData).Encode()
	flipped := bytes.Clone(blob)
	flipped[len(flipped)/2] ^= 0x40
	future := bytes.Clone(blob)
	future[5] = 99
	for name, b := range map[string][]byte{
		"empty": nil, "truncated": blob[:len(blob)/2], "bit flip": flipped, "garbage": []byte("hello world, not a save"),
	} {
		if _, err := Decode(b, testData); !errors.Is(err, ErrCorruptSave) {
			t.Errorf("%s: err = %v, want ErrCorruptSave", name, err)
		}
	}
	if _, err := Decode(future, testData); !errors.Is(err, ErrSaveVersion) {
		t.Errorf("future version: err = %v, want ErrSaveVersion", err)
	}
}

func BenchmarkNewLevel(b *testing.B) {
	var seed uint64
	for b.Loop() {
		seed++
		New(seed, testData)
	}
}

func BenchmarkTurn(b *testing.B) {
	g := New(9, testData)
	cmds := randomCommands(9, 1000)
	i := 0
	for b.Loop() {
		if g.Over() {
			g = New(9, testData)
		}
		g.Apply(cmds[i%len(cmds)])
		i++
	}
}

func BenchmarkSaveEncodeDecode(b *testing.B) {
	g := New(9, testData)
	play(g, randomCommands(9, 300))
	for b.Loop() {
		blob, _ := g.Encode()
		if _, err := Decode(blob, testData); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAJournalReplayedOnItsSnapshotGivesTheSameGame(t *testing.T) {
	for seed := range uint64(10) {
		g := New(seed, testData)
		snap, _ := g.Encode()
		var journal [][]byte
		for _, c := range randomCommands(seed, 500) {
			if _, err := g.Apply(c); err == nil {
				journal = append(journal, EncodeCommand(c))
			}
		}
		h, err := Decode(snap, testData)
		if err != nil {
			t.Fatal(err)
		}
		var cmds []Command
		for _, e := range journal {
			c, err := DecodeCommand(e)
			if err != nil {
				t.Fatal(err)
			}
			cmds = append(cmds, c)
		}
		if err := h.Replay(cmds); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		want, _ := g.Encode()
		got, _ := h.Encode()
		if !bytes.Equal(want, got) {
			t.Fatalf("seed %d: replay differs from the game played", seed)
		}
	}
}

func TestAJournalThatDoesNotFitItsSaveIsCorrupt(t *testing.T) {
	g := New(1, testData)
	err := g.Replay([]Command{Descend()}) // not on the stairs: this never happened
	if !errors.Is(err, ErrCorruptSave) {
		t.Errorf("err = %v, want ErrCorruptSave", err)
	}
	if _, err := DecodeCommand([]byte("{not json")); !errors.Is(err, ErrCorruptSave) {
		t.Errorf("garbage entry: %v", err)
	}
}

// BenchmarkTurnWith30Monsters is one turn with 30 hostile monsters in view
// chasing the player round a pillar: AI, distance map, FOV and effects.
func BenchmarkTurnWith30Monsters(b *testing.B) {
	g := New(1, testData)
	m := world.NewMap(MapWidth, MapHeight)
	for y := 1; y < 20; y++ {
		for x := 1; x < 40; x++ {
			m.Set(world.Pos{X: x, Y: y}, world.Floor)
		}
	}
	for y := 8; y < 12; y++ {
		m.Set(world.Pos{X: 20, Y: y}, world.Wall)
	}
	g.s.Map = m
	g.s.Items = nil
	p := g.s.Actors[0]
	p.Pos = world.Pos{X: 20, Y: 14}
	p.HP, p.MaxHP = 1<<30, 1<<30
	g.s.Actors = []Actor{p}
	k, _ := content.Default().Monster("orc")
	for i := range 30 {
		a := newMonster(k, world.Pos{X: 8 + i%15*2, Y: 3 + i/15*12})
		a.HP, a.MaxHP = 1<<30, 1<<30
		g.s.Actors = append(g.s.Actors, a)
	}
	g.buffers()
	g.updateFOV()
	for b.Loop() {
		g.Apply(Wait())
	}
}

// The breaker's saves: a negative rules version, an arrival countdown past its rule's range
// (it would switch arrivals off), a letter on a monster's loot and a pack
// lettered only in part are refused as corrupt, each with words that say
// what is wrong.
func TestDecodeRefusesOutOfRangeRulesCountdownsAndLetters(t *testing.T) {
	for name, c := range map[string]struct {
		damage func(*Game)
		want   string
	}{
		"negative rules":        {func(g *Game) { g.s.Rules = -1 }, "rules version"},
		"arrivals switched off": {func(g *Game) { g.s.Wander = 1 << 40 }, "arrival"},
		"negative arrivals":     {func(g *Game) { g.s.Wander = -3 }, "arrival"},
		"a lettered loot": {func(g *Game) {
			g.s.Actors = append(g.s.Actors, Actor{Kind: "orc", Pos: g.Player().Pos, HP: 1, MaxHP: 1,
				Loot: []Item{{Kind: Dagger, Letter: 'c'}}})
		}, "lettered"},
		"a pack lettered in part": {func(g *Game) {
			g.s.Inventory = []Item{{Kind: Dagger, Letter: 'a'}, {Kind: LeatherArmour}}
		}, "has no letter"},
	} {
		g := New(5, testData)
		c.damage(g)
		b, err := g.Encode()
		if err != nil {
			t.Fatal(err)
		}
		_, err = Decode(b, testData)
		if !errors.Is(err, ErrCorruptSave) || !strings.Contains(fmt.Sprint(err), c.want) {
			t.Errorf("%s: Decode err = %v, want ErrCorruptSave saying %q", name, err, c.want)
		}
	}
	// A newer build's game is not damaged: kept for that build, as a newer
	// save format is (ErrSaveVersion).
	g := New(5, testData)
	g.s.Rules = RulesVersion + 1
	b, _ := g.Encode()
	if _, err := Decode(b, testData); !errors.Is(err, ErrSaveVersion) || !strings.Contains(err.Error(), "rules version") {
		t.Errorf("a game under newer rules: Decode err = %v, want ErrSaveVersion naming the rules version", err)
	}
	g = New(5, testData)
	g.s.Wander = WanderMaxTurns
	b, _ = g.Encode()
	if _, err := Decode(b, testData); err != nil {
		t.Errorf("the longest countdown a level draws is refused: %v", err)
	}
}
