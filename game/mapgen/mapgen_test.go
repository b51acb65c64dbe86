package mapgen

import (
	"math/rand/v2"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

const w, h = 80, 43

func build(depth int, seed uint64) Level {
	rng := rand.New(rand.NewPCG(seed, uint64(depth)))
	return ForDepth(depth, rng).Build(rng, w, h)
}

func TestEveryDepthIsConnectedWithTheExitFarthestAway(t *testing.T) {
	for depth := 1; depth <= LastDepth; depth++ {
		for seed := range uint64(500) {
			lvl := build(depth, seed)
			m := lvl.Map
			d := world.NewDistanceMap(w, h)
			d.Compute(m, lvl.Start, world.Unreached)
			if !m.At(lvl.Start).Walkable() {
				t.Fatalf("depth %d seed %d: start %v on %v", depth, seed, lvl.Start, m.At(lvl.Start))
			}
			if m.At(lvl.Exit) != world.DownStairs || d.At(lvl.Exit) == world.Unreached {
				t.Fatalf("depth %d seed %d: exit %v is %v, distance %d", depth, seed, lvl.Exit, m.At(lvl.Exit), d.At(lvl.Exit))
			}
			far := int32(0)
			for y := range h {
				for x := range w {
					p := world.Pos{X: x, Y: y}
					if !m.At(p).Walkable() {
						continue
					}
					if d.At(p) == world.Unreached && inVault(lvl, p) {
						continue // behind a secret door: TestEverySpecialRoomAppearsAndIsWellFormed
					}
					if d.At(p) == world.Unreached {
						t.Fatalf("depth %d seed %d (%s): walkable %v unreachable from the start", depth, seed, lvl.Name, p)
					}
					far = max(far, d.At(p))
				}
			}
			if lvl.Name != "Rooms and Corridors" && d.At(lvl.Exit) != far {
				t.Fatalf("depth %d seed %d (%s): exit at distance %d, farthest tile at %d", depth, seed, lvl.Name, d.At(lvl.Exit), far)
			}
			for _, r := range lvl.Regions {
				for _, p := range r {
					if !m.At(p).Walkable() {
						t.Fatalf("depth %d seed %d: spawn region tile %v is %v", depth, seed, p, m.At(p))
					}
				}
			}
		}
	}
}

func TestDepthThreeIsTheDarkDecoratedLimestoneCaverns(t *testing.T) {
	lvl := build(3, 1)
	if lvl.Name != "Limestone Caverns" || lvl.Outdoors {
		t.Fatalf("depth 3 is %q, outdoors %v", lvl.Name, lvl.Outdoors)
	}
	count := map[world.Tile]int{}
	for _, t := range lvl.Map.Tiles {
		count[t]++
	}
	for _, tile := range []world.Tile{world.Gravel, world.ShallowWater, world.DeepWater, world.Stalactite, world.Stalagmite} {
		if count[tile] == 0 {
			t.Errorf("no tile %d in the caverns", tile)
		}
	}
	// Left centre start: nothing walkable much further left than it.
	if lvl.Start.X > w/4 {
		t.Errorf("start %v is not at the left", lvl.Start)
	}
}

func TestCaveDecoratorRulesHoldTileByTile(t *testing.T) {
	// A hand-made map: a plus-shaped cave in rock, with pillars.
	rows := []string{
		"##########",
		"#........#",
		"#.##..##.#",
		"#.#....#.#",
		"#...##...#",
		"#.#....#.#",
		"#.##..##.#",
		"#....#...#",
		"##########",
	}
	m := world.NewMap(len(rows[0]), len(rows))
	for y, r := range rows {
		for x, c := range r {
			if c == '.' {
				m.Set(world.Pos{X: x, Y: y}, world.Floor)
			}
		}
	}
	before := &world.Map{W: m.W, H: m.H, Tiles: append([]world.Tile(nil), m.Tiles...)}
	b := &BuildData{Map: m}
	CaveDecorator{}.Apply(rand.New(rand.NewPCG(7, 7)), b)
	seen := map[world.Tile]bool{}
	for y := range m.H {
		for x := range m.W {
			p := world.Pos{X: x, Y: y}
			old, now := before.At(p), m.At(p)
			seen[now] = true
			switch old {
			case world.Floor:
				if now != world.Floor && now != world.Gravel && now != world.ShallowWater {
					t.Errorf("floor %v became %d", p, now)
				}
			case world.Wall:
				switch n := WallNeighbours(before, p); {
				case n == 2 && now != world.DeepWater:
					t.Errorf("wall %v with 2 wall neighbours became %d, want deep water", p, now)
				case n == 1 && now != world.Wall && now != world.Stalactite && now != world.Stalagmite:
					t.Errorf("wall %v with 1 wall neighbour became %d", p, now)
				case n != 1 && n != 2 && now != world.Wall:
					t.Errorf("wall %v with %d wall neighbours became %d, want wall", p, n, now)
				}
			}
		}
	}
	if !seen[world.DeepWater] || !seen[world.Gravel] {
		t.Errorf("the hand-made map should show deep water and gravel: %v", seen)
	}
	// Same seed, same decoration.
	again := &world.Map{W: before.W, H: before.H, Tiles: append([]world.Tile(nil), before.Tiles...)}
	CaveDecorator{}.Apply(rand.New(rand.NewPCG(7, 7)), &BuildData{Map: again})
	for i := range again.Tiles {
		if again.Tiles[i] != m.Tiles[i] {
			t.Fatal("the decorator is not a function of its seed")
		}
	}
}

func TestDecoratorOddsOverManyTiles(t *testing.T) {
	// 1 in 6 gravel; else 1 in 10 shallow water: 1/6 and 5/60 of floor.
	m := world.NewMap(200, 200)
	for i := range m.Tiles {
		m.Tiles[i] = world.Floor
	}
	CaveDecorator{}.Apply(rand.New(rand.NewPCG(1, 2)), &BuildData{Map: m})
	n := map[world.Tile]float64{}
	for _, t := range m.Tiles {
		n[t]++
	}
	total := float64(len(m.Tiles))
	if g := n[world.Gravel] / total; g < 0.15 || g > 0.18 {
		t.Errorf("gravel %.3f of floor, want about 1/6", g)
	}
	if s := n[world.ShallowWater] / total; s < 0.07 || s > 0.097 {
		t.Errorf("shallow water %.3f of floor, want about 5/60", s)
	}
}

func TestStalactitesBlockSightAndDeepWaterOnlyWalking(t *testing.T) {
	m := world.NewMap(9, 3)
	for x := range 9 {
		m.Set(world.Pos{X: x, Y: 1}, world.Floor)
	}
	m.Set(world.Pos{X: 3, Y: 1}, world.DeepWater)
	m.Set(world.Pos{X: 6, Y: 1}, world.Stalactite)
	f := world.NewFOV(9, 3)
	f.Compute(m, world.Pos{X: 0, Y: 1}, 8)
	if !f.Visible(world.Pos{X: 5, Y: 1}) {
		t.Error("deep water blocks sight")
	}
	if f.Visible(world.Pos{X: 7, Y: 1}) {
		t.Error("a stalactite does not block sight")
	}
	d := world.NewDistanceMap(9, 3)
	d.Compute(m, world.Pos{X: 0, Y: 1}, world.Unreached)
	if d.At(world.Pos{X: 4, Y: 1}) != world.Unreached {
		t.Error("deep water can be walked through")
	}
}

func BenchmarkLevel(b *testing.B) {
	for depth := 1; depth <= LastDepth; depth++ {
		b.Run("depth"+string(rune('0'+depth)), func(b *testing.B) {
			var seed uint64
			for b.Loop() {
				seed++
				build(depth, seed)
			}
		})
	}
}

// inVault reports whether p lies in one of lvl's vaults.
func inVault(lvl Level, p world.Pos) bool {
	for _, r := range lvl.Rooms {
		if r.Kind == Vault && inside(r.Rect, p) {
			return true
		}
	}
	return false
}
