// Package game is grotto's pure core: the rules, the map, the actors and the
// turn loop. A game is a function of its seed and the commands applied to it:
// no I/O, no clock, no goroutines, no map iteration that can change an
// outcome. The UI reads it through accessors and changes it only with Apply.
package game

import (
	"math/rand/v2"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// Level size in tiles (the python-tcod tutorial's 80 x 43 map).
const (
	MapWidth  = 80
	MapHeight = 43
)

// FOVRadius is how far the player sees, in tiles.
const FOVRadius = 8

// state is everything a save holds (saved as saveState, savebody.go, whose
// tags fix the format: renaming a field here changes no save). Derived
// buffers (FOV, distances) live in Game and are rebuilt on load.
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
	Inventory []Item  // the player's items, each under its letter (Item.Letter, stack.go)
	Log       []Message
	Over      bool          // the game has ended: the player died or escaped
	Won       bool          // the player escaped the grotto
	Cheated   bool          // an admin cheat was used: no place on the score table
	God       bool          // god mode: the player takes no damage
	Cause     string        // how the game ended, e.g. "killed by an orc on depth 2"
	XPEarned  int           // experience from kills, the main part of the score
	CharLevel int           // the player's level (growth.go); 0, as in saves from before levels, means 1
	XP        int           // the player's experience toward the next level
	Seen      []Sighting    // things the player remembers on this level (memory.go)
	Slain     []Slain       // the player's kills by monster, in the order first killed
	Daily     string        // the daily challenge's UTC date, "2006-01-02" (daily.go); "" for a game of its own
	Known     []ItemKind    // the kinds the player has learned, in the order learned (identify.go)
	Called    []Called      // the names the player gave unknown kinds, in the order given (identify.go)
	Rules     int           // the RulesVersion the game began under (history.go, Game.Rules); 0, as in saves from before rules versions were kept, is 1
	Played    int           // the newest RulesVersion that has played a turn of the game, when newer than Rules; else 0 (Decode, Apply)
	Hunger    int           // nutrition spent since the start's StartNutrition (clock.go); 0, as in saves from before hunger, is full; below 0 after eating
	Rooms     []SpecialRoom // the special rooms of this level as built (special.go); none in older saves
	Wander    int           // turns until the next monster arrives on this level (wander.go); 0: not drawn yet
}

// Game is one player's game. It is not safe for concurrent use: one game
// belongs to one session goroutine.
type Game struct {
	s    state
	pcg  *rand.PCG
	rng  *rand.Rand
	fov  *world.FOV // line of sight from the player
	vis  []bool     // W x H: what the player sees now (see updateFOV)
	dist *world.DistanceMap
	// distFresh: dist holds the distances from the player for this
	// monsters' turn (ai.go, chaseMap); derived, never saved
	distFresh bool
	light     *lighting // derived each turn on dark levels; never saved
	data      *content.Tables
	hist      history // every command accepted since turn 0 (history.go)
	// upgraded: decoded from a save last played under older rules than
	// these (ResumedUnderNewerRules); never saved
	upgraded bool
	// slain collects the kinds the player kills during one Apply, for
	// its Result.Slain; nil between calls, never saved
	slain []string
}

// New starts a game from seed on depth 1, with the monsters, items and spawn
// tables of data, which must not be nil and should have passed CheckData
// (LoadData does both; tests may pass content.Default()). The game keeps
// data and never changes it. The same seed, data and commands always give
// the same game.
func New(seed uint64, data *content.Tables) *Game {
	pcg := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	g := &Game{pcg: pcg, rng: rand.New(pcg), data: data, hist: history{complete: true}}
	g.s.Seed, g.s.Rules = seed, RulesVersion
	g.s.Actors = []Actor{newPlayer(world.Pos{})}
	g.enterLevel(1)
	g.logf(MsgWelcome, "Hello, adventurer, and welcome to the grotto!")
	g.logf(MsgInfo, g.feeling())
	return g
}

// FOV radii in tiles. On lit levels the player sees FOVRadius. On dark
// levels the player's own sight is the torch, TorchSightRadius; beyond it the
// player still sees, up to DarkSightRadius, whatever another light source
// lights (a bandit's torch, a glowing cube).
const DarkSightRadius = 20

// TorchSightRadius is how far the player sees by their own torch on a dark
// level, in tiles. The torch keeps the caverns chapter's range 8 and its
// falloff (bracket-lib, "Lighting": light = (range − distance) / range), so
// at 5 tiles it gives 3/8 of its light and at 6 only a quarter: what lies
// further is too faint to make out by the torch alone. Five is also below
// the unlit hunters' vision (spiders and bats see 6 tiles): in the dark they
// see the player first, unless they carry a light of their own.
const TorchSightRadius = 5

// updateFOV recomputes line of sight, light and what the player sees, adds
// what is seen to the explored memory, and remembers the things lying on the
// tiles in view (see remember).
func (g *Game) updateFOV() {
	g.updateSight()
	g.remember()
}

// updateSight recomputes line of sight, light and what the player sees, and
// adds what is seen to the explored memory: within FOVRadius on lit levels;
// on dark levels within TorchSightRadius, and up to DarkSightRadius where
// another light source lights the tile.
func (g *Game) updateSight() {
	m := g.s.Map
	o := g.s.Actors[0].Pos
	r, own := FOVRadius, FOVRadius
	if g.s.Dark {
		r, own = DarkSightRadius, TorchSightRadius
	}
	g.fov.Compute(m, o, r)
	g.updateLight()
	clear(g.vis)
	ownSq := own*own + own // the same rounded disc as world.FOV's radius test
	for y := max(0, o.Y-r); y <= min(m.H-1, o.Y+r); y++ {
		for x := max(0, o.X-r); x <= min(m.W-1, o.X+r); x++ {
			p := world.Pos{X: x, Y: y}
			if !g.fov.Visible(p) {
				continue
			}
			dx, dy := x-o.X, y-o.Y
			if dx*dx+dy*dy <= ownSq || g.s.Dark && g.light.byOthers(p) {
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
