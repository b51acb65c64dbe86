package world

// FOV computes the tiles visible from an origin with symmetric shadowcasting
// (A. Ford, "Symmetric Shadowcasting", 2021): floor tiles are visible from each
// other symmetrically (if A sees B then B sees A), walls are lit expansively so
// rooms look whole, and slopes are exact rationals, never floats.
//
// An FOV keeps its buffer between calls so that recomputing does not allocate.
type FOV struct {
	w, h    int
	visible []bool // W x H, row-major
}

// NewFOV returns an FOV buffer for a w x h map.
func NewFOV(w, h int) *FOV { return &FOV{w: w, h: h, visible: make([]bool, w*h)} }

// Visible reports whether p was visible in the last Compute.
func (f *FOV) Visible(p Pos) bool {
	if p.X < 0 || p.Y < 0 || p.X >= f.w || p.Y >= f.h {
		return false
	}
	return f.visible[p.Y*f.w+p.X]
}

// Compute marks every tile of m visible from origin within radius tiles
// (Euclidean: dx²+dy² ≤ radius²+radius, the usual rounded circle). Tiles
// outside m are never visible. m must be the size the FOV was made for.
func (f *FOV) Compute(m *Map, origin Pos, radius int) {
	clear(f.visible)
	f.mark(origin)
	limit := radius*radius + radius
	for q := range 4 {
		s := scanner{f: f, m: m, origin: origin, quadrant: q, radius: radius, limit: limit}
		s.scan(1, slope{-1, 1}, slope{1, 1})
	}
}

func (f *FOV) mark(p Pos) {
	if p.X >= 0 && p.Y >= 0 && p.X < f.w && p.Y < f.h {
		f.visible[p.Y*f.w+p.X] = true
	}
}

// slope is the exact rational num/den with den > 0.
type slope struct{ num, den int }

type scanner struct {
	f        *FOV
	m        *Map
	origin   Pos
	quadrant int // 0 north, 1 east, 2 south, 3 west
	radius   int
	limit    int
}

// transform maps (depth, col) in quadrant space to a map position.
func (s *scanner) transform(depth, col int) Pos {
	o := s.origin
	switch s.quadrant {
	case 0:
		return Pos{o.X + col, o.Y - depth}
	case 1:
		return Pos{o.X + depth, o.Y + col}
	case 2:
		return Pos{o.X + col, o.Y + depth}
	default:
		return Pos{o.X - depth, o.Y + col}
	}
}

// floorDiv is a/b rounded towards negative infinity, b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// scan walks one row of the quadrant between two slopes and recurses into the
// next row for every run of floor (Ford's scan, iterative per row).
func (s *scanner) scan(depth int, start, end slope) {
	if depth > s.radius {
		return
	}
	// min_col = round_ties_up(depth*start), max_col = round_ties_down(depth*end)
	minCol := floorDiv(2*depth*start.num+start.den, 2*start.den)
	maxCol := -floorDiv(-(2*depth*end.num - end.den), 2*end.den) // ceil
	prevKnown, prevWall := false, false
	for col := minCol; col <= maxCol; col++ {
		p := s.transform(depth, col)
		wall := s.m.Blocks(p)
		inRange := depth*depth+col*col <= s.limit
		symmetric := col*start.den >= depth*start.num && col*end.den <= depth*end.num
		if inRange && (wall || symmetric) {
			s.f.mark(p)
		}
		if prevKnown && prevWall && !wall {
			start = slope{2*col - 1, 2 * depth}
		}
		if prevKnown && !prevWall && wall {
			s.scan(depth+1, start, slope{2*col - 1, 2 * depth})
		}
		prevKnown, prevWall = true, wall
	}
	if prevKnown && !prevWall {
		s.scan(depth+1, start, end)
	}
}
