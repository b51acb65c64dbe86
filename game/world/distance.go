package world

// DistanceMap holds walking distances in 8-way steps from a goal tile over the
// walkable tiles of a map (a "Dijkstra map", as in Brogue). Every chasing
// monster reads the same map, so one breadth-first search per turn serves all
// of them. Buffers are reused between calls.
type DistanceMap struct {
	w, h  int
	dist  []int32 // W x H, row-major; Unreached where no path exists
	queue []int32 // breadth-first frontier, packed x | y<<16
}

// Unreached is the distance of a tile no walk reaches.
const Unreached = int32(1<<31 - 1)

// NewDistanceMap returns a distance map for a w x h level.
func NewDistanceMap(w, h int) *DistanceMap {
	return &DistanceMap{w: w, h: h, dist: make([]int32, w*h), queue: make([]int32, 0, w*h)}
}

// Compute fills the distances from goal over m's walkable tiles (the goal
// itself counts as walkable), up to limit steps: tiles farther than limit are
// left Unreached, which keeps the search small when only nearby tiles
// matter. Diagonal steps cost 1, like orthogonal ones.
func (d *DistanceMap) Compute(m *Map, goal Pos, limit int32) {
	d.ComputeGoals(m, []Pos{goal}, limit)
}

// ComputeGoals is Compute from several goals at once: each tile gets its
// distance to the nearest of them (Brogue's Dijkstra map with many sources,
// what travel and auto-explore walk down). Goals outside m are ignored.
func (d *DistanceMap) ComputeGoals(m *Map, goals []Pos, limit int32) {
	for i := range d.dist {
		d.dist[i] = Unreached
	}
	d.queue = d.queue[:0]
	// The queue holds packed positions (x | y<<16): no division per tile.
	for _, goal := range goals {
		if !m.In(goal) || d.dist[m.Index(goal)] == 0 {
			continue
		}
		d.dist[m.Index(goal)] = 0
		d.queue = append(d.queue, int32(goal.X|goal.Y<<16))
	}
	w, h := d.w, d.h
	for head := 0; head < len(d.queue); head++ {
		x, y := int(d.queue[head]&0xffff), int(d.queue[head]>>16)
		next := d.dist[y*w+x] + 1
		if next > limit {
			break // breadth-first: every later tile is at least as far
		}
		for _, dir := range Directions8 {
			nx, ny := x+dir.X, y+dir.Y
			if uint(nx) >= uint(w) || uint(ny) >= uint(h) {
				continue
			}
			ni := ny*w + nx
			if d.dist[ni] != Unreached || !m.Tiles[ni].Walkable() {
				continue
			}
			d.dist[ni] = next
			d.queue = append(d.queue, int32(nx|ny<<16))
		}
	}
}

// At returns the distance in steps from p to the goal, or Unreached.
func (d *DistanceMap) At(p Pos) int32 {
	if p.X < 0 || p.Y < 0 || p.X >= d.w || p.Y >= d.h {
		return Unreached
	}
	return d.dist[p.Y*d.w+p.X]
}
