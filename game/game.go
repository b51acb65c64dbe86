// Package game is grotto's pure core: the rules, the map, the actors and the
// turn loop. A game is a function of its seed and the commands applied to it:
// no I/O, no clock, no goroutines, no map iteration that can change an
// outcome. The UI reads it through accessors and changes it only with Apply.
package game

import (
	"math/rand/v2"
	"slices"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
	"github.com/grotto-game/grotto/game/world"
)

// Level size in tiles (the python-tcod tutorial's 80 x 43 map).
const (
	MapWidth  = 80
	MapHeight = 43
)

// FOVRadius is how far the player sees, in tiles.
const FOVRadius = 8

// state is everything a save holds. Derived buffers (FOV, distances) live in
// Game and are rebuilt on load.
type state struct {
	Seed      uint64
	Depth     int    // 1 for the first level, one more per staircase taken
	Level     string // the level's name, e.g. "Limestone Caverns"
	Dark      bool   // lit only by light sources (the caverns)
	Turn      int    // player actions that took time
	Kills     int
	Map       *world.Map
	Actors    []Actor // Actors[0] is the player
	Items     []Item  // items lying on this level, oldest first
	Inventory []Item  // the player's items, slot i is letter 'a'+i
	Log       []Message
	Over      bool   // the game has ended: the player died or escaped
	Won       bool   // the player escaped the grotto
	Cheated   bool   // an admin cheat was used: no place on the score table
	God       bool   // god mode: the player takes no damage
	Cause     string // how the game ended, e.g. "killed by an orc on depth 2"
	XPEarned  int    // experience from kills, the main part of the score
}

// Game is one player's game. It is not safe for concurrent use: one game
// belongs to one session goroutine.
type Game struct {
	s     state
	pcg   *rand.PCG
	rng   *rand.Rand
	fov   *world.FOV // line of sight from the player
	vis   []bool     // W x H: what the player sees now (see updateFOV)
	dist  *world.DistanceMap
	light *lighting // derived each turn on dark levels; never saved
}

// New starts a game from seed on depth 1. The same seed and the same commands
// always give the same game.
func New(seed uint64) *Game {
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	g := &Game{pcg: pcg, rng: rand.New(pcg)}
	g.s.Seed = seed
	g.s.Actors = []Actor{newPlayer(world.Pos{})}
	g.enterLevel(1)
	g.logf(MsgWelcome, "Hello, adventurer, and welcome to the grotto!")
	return g
}

// enterLevel builds depth's level with its builder chain, places the player
// at its start, spawns its monsters and items and computes the first FOV.
// Remains of the old level are dropped.
func (g *Game) enterLevel(depth int) {
	lvl := mapgen.ForDepth(depth, g.rng).Build(g.rng, MapWidth, MapHeight)
	g.s.Depth = depth
	g.s.Map = lvl.Map
	g.s.Level = lvl.Name
	g.s.Dark = !lvl.Outdoors
	player := g.s.Actors[0]
	player.Pos = lvl.Start
	g.s.Actors = append(g.s.Actors[:0], player)
	g.s.Items = g.s.Items[:0]
	g.spawn(lvl)
	g.buffers()
	g.updateFOV()
}

// buffers allocates the derived per-level buffers for the current map: once
// per level, never per turn.
func (g *Game) buffers() {
	g.fov = world.NewFOV(g.s.Map.W, g.s.Map.H)
	g.vis = make([]bool, g.s.Map.W*g.s.Map.H)
	g.dist = world.NewDistanceMap(g.s.Map.W, g.s.Map.H)
	g.light = nil // made on the first dark level: most levels never need it
	if g.s.Dark {
		g.light = newLighting(g.s.Map.W, g.s.Map.H)
	}
}

// maxMonstersPerRoom grows with depth (python-tcod tutorial part 12, toned
// down: cave levels have more, smaller spawn regions than rooms).
func maxMonstersPerRoom(depth int) int {
	if depth >= 4 {
		return 3
	}
	return 2
}

// MaxItemsPerRoom is how many items a spawn region may hold (0 to this, evenly).
const MaxItemsPerRoom = 2

// spawn puts 0..maxMonstersPerRoom monsters and 0..MaxItemsPerRoom items in
// every spawn region but the player's, on free walkable tiles, chosen by the
// data's spawn tables for the depth.
func (g *Game) spawn(lvl mapgen.Level) {
	tables := content.Default()
	for _, r := range lvl.Regions {
		if len(r) == 0 || slices.Contains(r, lvl.Start) {
			continue // the starting region stays quiet
		}
		for range g.rng.IntN(maxMonstersPerRoom(g.s.Depth) + 1) {
			p := r[g.rng.IntN(len(r))]
			id := pickSpawn(g.rng, tables.MonsterSpawns, g.s.Depth)
			if k, ok := tables.Monster(id); ok && g.s.Map.At(p).Walkable() && g.blockerAt(p) == nil && p != lvl.Exit {
				g.s.Actors = append(g.s.Actors, newMonster(k, p))
			}
		}
		for range g.rng.IntN(MaxItemsPerRoom + 1) {
			p := r[g.rng.IntN(len(r))]
			id := pickSpawn(g.rng, tables.ItemSpawns, g.s.Depth)
			if g.s.Map.At(p).Walkable() && len(g.itemsAt(p)) == 0 && p != lvl.Exit {
				g.s.Items = append(g.s.Items, Item{Kind: ItemKind(id), Pos: p})
			}
		}
	}
}

// pickSpawn draws an id from a spawn table by its weights at depth; the
// tables are checked to have some weight at every depth.
func pickSpawn(rng *rand.Rand, table []content.Spawn, depth int) string {
	total := 0
	for _, s := range table {
		total += s.WeightAt(depth)
	}
	if total == 0 {
		return ""
	}
	roll := rng.IntN(total)
	for _, s := range table {
		if roll -= s.WeightAt(depth); roll < 0 {
			return s.ID
		}
	}
	return ""
}

// FOV radii in tiles. On lit levels the player sees FOVRadius; on dark
// levels the torch lights PlayerTorchRange, and beyond it the player still
// sees, up to DarkSightRadius, whatever another light source lights (a
// bandit's torch, a glowing cube).
const DarkSightRadius = 20

// updateFOV recomputes line of sight, light and what the player sees, and
// adds what is seen to the explored memory.
func (g *Game) updateFOV() {
	m := g.s.Map
	o := g.s.Actors[0].Pos
	r := FOVRadius
	if g.s.Dark {
		r = DarkSightRadius
	}
	g.fov.Compute(m, o, r)
	g.updateLight()
	clear(g.vis)
	own := FOVRadius*FOVRadius + FOVRadius
	for y := max(0, o.Y-r); y <= min(m.H-1, o.Y+r); y++ {
		for x := max(0, o.X-r); x <= min(m.W-1, o.X+r); x++ {
			p := world.Pos{X: x, Y: y}
			if !g.fov.Visible(p) {
				continue
			}
			dx, dy := x-o.X, y-o.Y
			if dx*dx+dy*dy <= own || g.s.Dark && g.light.byOthers(p) {
				g.vis[y*m.W+x] = true
				m.Explored[y*m.W+x] = true
			}
		}
	}
}

// visible reports whether the player sees p now.
func (g *Game) visible(p world.Pos) bool {
	return g.s.Map.In(p) && g.vis[p.Y*g.s.Map.W+p.X]
}

// blockerAt returns the blocking actor standing on p, or nil.
func (g *Game) blockerAt(p world.Pos) *Actor {
	for i := range g.s.Actors {
		if a := &g.s.Actors[i]; a.Blocks && a.Pos == p {
			return a
		}
	}
	return nil
}
