package world

// DistanceMap holds walking distances in 8-way steps from a goal tile over the
// walkable tiles of a map (a "Dijkstra map", as in Brogue). Every chasing
// monster reads the same map, so one breadth-first search per turn serves all
// of them. Buffers are reused between calls.
type DistanceMap struct {
	w, h  int
	dist  []int32 // W x H, row-major; Unreached where no path exists
	queue []int32
}

// Unreached is the distance of a tile no walk reaches.
const Unreached = int32(1<<31 - 1)

// NewDistanceMap returns a distance map for a w x h level.
func NewDistanceMap(w, h int) *DistanceMap {
	return &DistanceMap{w: w, h: h, dist: make([]int32, w*h), queue: make([]int32, 0, w*h)}
}

// Compute fills the distances from goal over m's walkable tiles (the goal
// itself counts as walkable). Diagonal steps cost 1, like orthogonal ones.
func (d *DistanceMap) Compute(m *Map, goal Pos) {
	for i := range d.dist {
		d.dist[i] = Unreached
	}
	if !m.In(goal) {
		return
	}
	d.queue = d.queue[:0]
	gi := int32(m.Index(goal))
	d.dist[gi] = 0
	d.queue = append(d.queue, gi)
	for head := 0; head < len(d.queue); head++ {
		i := d.queue[head]
		p := Pos{int(i) % d.w, int(i) / d.w}
		for _, dir := range Directions8 {
			n := p.Add(dir.X, dir.Y)
			if !m.In(n) || !m.At(n).Walkable() {
				continue
			}
			ni := int32(m.Index(n))
			if d.dist[ni] != Unreached {
				continue
			}
			d.dist[ni] = d.dist[i] + 1
			d.queue = append(d.queue, ni)
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
