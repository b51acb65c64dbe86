package game

// This file is level changes: building a depth and spawning what lives on
// it, taking the stairs down, and escaping from the last depth.

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
	"github.com/grotto-game/grotto/game/world"
)

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
	g.s.Seen = nil // the memory of things is per level
	g.s.Wander = 0 // each level draws its own first arrival (wander.go)
	g.spawn(lvl)
	g.furnish(lvl)
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

// spawn puts monsters and items in every spawn region but the player's, on
// free walkable tiles: as many as balance.json's row for the depth draws
// (min_monsters..max_monsters monsters, 0..max_items items, evenly), each
// chosen by the data's spawn tables for the depth. The rows grow with depth
// as python-tcod tutorial part 12's max_monsters_by_floor does; their
// numbers are tuned with the bot report (docs/balance.md).
func (g *Game) spawn(lvl mapgen.Level) {
	tables := g.data
	rs, _ := tables.Balance.RegionsAt(g.s.Depth) // CheckData: every depth has its row
	for _, r := range lvl.Regions {
		if len(r) == 0 || slices.Contains(r, lvl.Start) {
			continue // the starting region stays quiet
		}
		for range rs.MinMonsters + g.rng.IntN(rs.MaxMonsters-rs.MinMonsters+1) {
			p := r[g.rng.IntN(len(r))]
			id := pickSpawn(g.rng, tables.MonsterSpawns, g.s.Depth)
			if k, ok := tables.Monster(id); ok && g.s.Map.At(p).Walkable() && g.blockerAt(p) == nil && p != lvl.Exit {
				g.s.Actors = append(g.s.Actors, newMonster(k, p))
				g.spawnGroup(k, p, lvl.Exit)
			}
		}
		for range g.rng.IntN(rs.MaxItems + 1) {
			p := r[g.rng.IntN(len(r))]
			id := pickSpawn(g.rng, tables.ItemSpawns, g.s.Depth)
			if g.s.Map.At(p).Walkable() && g.s.Map.At(p) != world.Altar && len(g.itemsAt(p)) == 0 && p != lvl.Exit {
				g.spawnItem(ItemKind(id), p) // magic.go: a wand's charges, a bundle of darts
			}
		}
	}
}

// spawnGroup puts the rest of a pack (monsters.json "group": how many spawn
// together) on the free walkable tiles nearest p, within 2 tiles, in
// world.Directions8's order ring by ring: no roll, so kinds without a group
// leave the level as it was.
func (g *Game) spawnGroup(k content.Monster, p, exit world.Pos) {
	left := k.Group - 1
	for ring := 1; ring <= 2 && left > 0; ring++ {
		for _, d := range world.Directions8 {
			q := p.Add(d.X*ring, d.Y*ring)
			if left > 0 && g.s.Map.At(q).Walkable() && g.blockerAt(q) == nil && q != exit {
				g.s.Actors = append(g.s.Actors, newMonster(k, q))
				left--
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

// takeStairs spends a turn going down the stairs, or out of the grotto
// from the last depth.
func (g *Game) takeStairs() Result {
	g.s.Turn++
	if g.s.Depth >= mapgen.LastDepth {
		g.escape()
		return Result{Won: true}
	}
	g.descend()
	g.tickEffects() // the stairs take a turn like any action
	g.tickClock()
	return Result{Descended: true, Died: g.s.Over}
}

// escape ends the game in victory: the last level's stairs lead out.
func (g *Game) escape() {
	g.s.Over, g.s.Won = true, true
	g.s.Cause = "escaped the grotto"
	g.logf(MsgDescend, "You climb the last stairs and step out of the grotto into daylight. You have won!")
}

// descend builds the next depth and lets the player rest on the stairs,
// recovering balance.json's stairs_rest_percent of their maximum HP
// (python-tcod tutorial part 11 rests for half); it says which depth of
// how many it is, and at the last that its stairs lead out.
func (g *Game) descend() {
	g.enterLevel(g.s.Depth + 1)
	p := g.player()
	heal := min(p.MaxHP*g.data.Balance.StairsRestPercent/100, p.MaxHP-p.HP)
	p.HP += heal
	g.logf(MsgDescend, "You take a moment to rest, and recover your strength.")
	g.logf(MsgDescend, fmt.Sprintf("You descend to depth %d of %d: %s.", g.s.Depth, mapgen.LastDepth, g.s.Level))
	if g.s.Depth == mapgen.LastDepth { // two testers learned it only on the last stairs
		g.logf(MsgInfo, LastDepthNote)
	}
	g.logf(MsgInfo, g.feeling())
}

// LastDepthNote is what a player reads on reaching the last depth: its
// stairs lead out of the grotto, and so to victory.
const LastDepthNote = "This is the deepest level: its stairs lead out of the grotto."
