package world

import (
	"math/rand/v2"
	"testing"
)

// randomCave returns a w x h map with roughly 1 in 3 tiles walls.
func randomCave(seed uint64, w, h int) *Map {
	rng := rand.New(rand.NewPCG(seed, 1))
	m := NewMap(w, h)
	for i := range m.Tiles {
		if rng.IntN(3) != 0 {
			m.Tiles[i] = Floor
		}
	}
	return m
}

func TestFOVWallHidesWhatIsBehindIt(t *testing.T) {
	m := NewMap(20, 5)
	for x := 1; x < 19; x++ {
		m.Set(Pos{x, 2}, Floor)
	}
	m.Set(Pos{10, 2}, Wall)
	f := NewFOV(m.W, m.H)
	f.Compute(m, Pos{5, 2}, 8)
	if !f.Visible(Pos{9, 2}) {
		t.Error("floor in front of the wall should be visible")
	}
	if !f.Visible(Pos{10, 2}) {
		t.Error("the wall itself should be visible")
	}
	if f.Visible(Pos{11, 2}) || f.Visible(Pos{12, 2}) {
		t.Error("floor behind a wall in a one-tile corridor must not be visible")
	}
}

func TestFOVRadiusLimitsSight(t *testing.T) {
	m := NewMap(40, 40)
	for i := range m.Tiles {
		m.Tiles[i] = Floor
	}
	f := NewFOV(m.W, m.H)
	f.Compute(m, Pos{20, 20}, 8)
	if !f.Visible(Pos{28, 20}) || !f.Visible(Pos{20, 12}) {
		t.Error("tiles 8 away in a straight line should be visible")
	}
	if f.Visible(Pos{29, 20}) || f.Visible(Pos{27, 27}) {
		t.Error("tiles beyond radius 8 must not be visible")
	}
}

func TestFOVIsSymmetricBetweenFloorTiles(t *testing.T) {
	const w, h, r = 30, 20, 8
	for seed := range uint64(40) {
		m := randomCave(seed, w, h)
		from := make([]*FOV, w*h)
		for i, tile := range m.Tiles {
			if tile == Floor {
				from[i] = NewFOV(w, h)
				from[i].Compute(m, Pos{i % w, i / w}, r)
			}
		}
		for a, fa := range from {
			if fa == nil {
				continue
			}
			for b, fb := range from {
				if fb == nil {
					continue
				}
				pa, pb := Pos{a % w, a / w}, Pos{b % w, b / w}
				if fa.Visible(pb) != fb.Visible(pa) {
					t.Fatalf("seed %d: %v sees %v is %v, but %v sees %v is %v",
						seed, pa, pb, fa.Visible(pb), pb, pa, fb.Visible(pa))
				}
			}
		}
	}
}

func TestFOVNeverLeavesTheMap(t *testing.T) {
	m := randomCave(7, 10, 10)
	f := NewFOV(m.W, m.H)
	for _, o := range []Pos{{0, 0}, {9, 9}, {0, 9}, {5, 0}} {
		f.Compute(m, o, 20) // must not index outside the buffer
	}
	if f.Visible(Pos{-1, 0}) || f.Visible(Pos{10, 3}) {
		t.Error("positions outside the map reported visible")
	}
}

func TestDistanceMapWalksAroundWalls(t *testing.T) {
	// A wall with a gap at the bottom: the walk must go round it.
	m := NewMap(7, 5)
	for y := range 5 {
		for x := range 7 {
			m.Set(Pos{x, y}, Floor)
		}
	}
	for y := range 4 {
		m.Set(Pos{3, y}, Wall)
	}
	d := NewDistanceMap(m.W, m.H)
	d.Compute(m, Pos{0, 0}, Unreached)
	if got := d.At(Pos{6, 0}); got != 8 {
		t.Errorf("distance round the wall = %d, want 8", got)
	}
	if got := d.At(Pos{3, 0}); got != Unreached {
		t.Errorf("a wall tile has distance %d, want Unreached", got)
	}
}

func BenchmarkFOVRadius8(b *testing.B) {
	m := randomCave(3, 80, 43)
	f := NewFOV(m.W, m.H)
	for b.Loop() {
		f.Compute(m, Pos{40, 21}, 8)
	}
}

func BenchmarkDistanceMap(b *testing.B) {
	m := randomCave(3, 80, 43)
	d := NewDistanceMap(m.W, m.H)
	for b.Loop() {
		d.Compute(m, Pos{40, 21}, Unreached)
	}
}

func TestDistanceMapStopsAtItsLimit(t *testing.T) {
	m := NewMap(30, 1)
	for x := range 30 {
		m.Set(Pos{x, 0}, Floor)
	}
	d := NewDistanceMap(m.W, m.H)
	d.Compute(m, Pos{0, 0}, 10)
	if d.At(Pos{10, 0}) != 10 || d.At(Pos{11, 0}) != Unreached {
		t.Errorf("at 10: %d, at 11: %d; want 10 and Unreached", d.At(Pos{10, 0}), d.At(Pos{11, 0}))
	}
}

func BenchmarkDistanceMapChaseLimit24(b *testing.B) {
	m := randomCave(3, 80, 43)
	d := NewDistanceMap(m.W, m.H)
	for b.Loop() {
		d.Compute(m, Pos{40, 21}, 24)
	}
}
