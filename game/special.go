package game

// This file is the core's side of special rooms and traps: filling the
// special rooms the builders placed (mapgen/special.go), the level feeling
// on arrival, traps and what they do when stepped on, the search command that finds hidden
// traps and secret doors, and the shrine's choice.

import (
	"fmt"

	"github.com/grotto-game/grotto/game/mapgen"
	"github.com/grotto-game/grotto/game/world"
)

// SpecialRoom is a special room of the current level as built: its kind
// ("vault", "treasure room", "den", "shrine": mapgen.RoomKind's names) and
// its rectangle in tiles, walls included. It is what the level holds, not
// what the player knows: for tests and the bots' report, never drawn.
type SpecialRoom struct {
	Kind       string
	X, Y, W, H int
}

// SpecialRooms returns a copy of the current level's special rooms, in the
// order built. Not player knowledge (a vault is behind a secret door): the
// UI must not show it; the bots' report counts it.
func (g *Game) SpecialRooms() []SpecialRoom { return append([]SpecialRoom(nil), g.s.Rooms...) }

// Numbers of the special rooms' contents (NetHack's vaults hold gold, here
// a hoard of items). Everything is drawn from the level's own spawn tables,
// so a depth never holds what its tables exclude; a room is richer by count.
const (
	VaultItems    = 4 // items tried in a vault
	TreasureItems = 3 // items tried in a treasure room
	DenMonsters   = 4 // monsters tried in a den at least (up to 2 more)
	DenItems      = 2 // loot tried in a den
)

// furnish fills the special rooms of a new level, after the ordinary spawns:
// items on a vault's floor, on a treasure room's untrapped floor and on a
// shrine's altars (one item each, never a bundle), a den's crowd of monsters and its loot. It
// remembers the rooms in the state.
func (g *Game) furnish(lvl mapgen.Level) {
	g.s.Rooms = nil
	for _, r := range lvl.Rooms {
		g.s.Rooms = append(g.s.Rooms, SpecialRoom{Kind: r.Kind.String(), X: r.Rect.X, Y: r.Rect.Y, W: r.Rect.W, H: r.Rect.H})
		switch r.Kind {
		case mapgen.Vault:
			g.placeItems(r.Spots, VaultItems, g.s.Depth, lvl.Exit)
		case mapgen.TreasureRoom:
			g.placeItems(r.Spots, TreasureItems, g.s.Depth, lvl.Exit)
		case mapgen.Shrine:
			var last ItemKind
			for _, p := range r.Spots {
				id := ItemKind(pickSpawn(g.rng, g.data.ItemSpawns, g.s.Depth))
				if id == last { // one draw again, so the choice is rarely between twins
					id = ItemKind(pickSpawn(g.rng, g.data.ItemSpawns, g.s.Depth))
				}
				last = id
				if id.Known() {
					// One item, a single dart too (newItem, not spawnItem's
					// bundle): an offering is one thing to choose.
					g.s.Items = append(g.s.Items, g.newItem(id, p))
				}
			}
		case mapgen.Den:
			n := DenMonsters + g.rng.IntN(3)
			for range n {
				p := r.Spots[g.rng.IntN(len(r.Spots))]
				id := pickSpawn(g.rng, g.data.MonsterSpawns, g.s.Depth)
				if k, ok := g.data.Monster(id); ok && g.blockerAt(p) == nil && p != lvl.Exit && p != lvl.Start {
					g.s.Actors = append(g.s.Actors, newMonster(k, p))
				}
			}
			g.placeItems(r.Spots, DenItems, g.s.Depth, lvl.Exit)
		}
	}
}

// placeItems puts n items drawn from the item table of depth on free tiles
// among spots (a tile already holding an item, or the exit, is skipped).
func (g *Game) placeItems(spots []world.Pos, n, depth int, exit world.Pos) {
	for range n {
		p := spots[g.rng.IntN(len(spots))]
		id := ItemKind(pickSpawn(g.rng, g.data.ItemSpawns, depth))
		if id.Known() && len(g.itemsAt(p)) == 0 && p != exit && !g.s.Map.At(p).Trap() {
			g.spawnItem(id, p)
		}
	}
}

// The level feelings (Angband's and DCSS's level feelings): one message on
// arriving, from what the level holds. A den comes first, then treasure
// (a vault or a treasure room), then a shrine.
const (
	FeelingDen      = "You have a bad feeling about this level."
	FeelingTreasure = "You sense treasure nearby."
	FeelingShrine   = "You hear a faint chanting somewhere."
	FeelingQuiet    = "The air is still and quiet."
)

// feeling returns the level feeling of the current level.
func (g *Game) feeling() string {
	has := func(k mapgen.RoomKind) bool {
		for _, r := range g.s.Rooms {
			if r.Kind == k.String() {
				return true
			}
		}
		return false
	}
	switch {
	case has(mapgen.Den):
		return FeelingDen
	case has(mapgen.Vault) || has(mapgen.TreasureRoom):
		return FeelingTreasure
	case has(mapgen.Shrine):
		return FeelingShrine
	}
	return FeelingQuiet
}

// SearchChance is the chance, one in SearchChance, that one search finds
// each hidden trap or secret door next to the player (NetHack's search
// finds an adjacent hidden thing with a like chance a turn).
const SearchChance = 3

// search spends a turn looking for hidden things on the eight tiles round
// the player, in world.Directions8's order; each is found with a chance of
// 1 in SearchChance, and then shown for what it is.
func (g *Game) search() {
	g.s.Turn++
	found := false
	for _, d := range world.Directions8 {
		p := g.player().Pos.Add(d.X, d.Y)
		t := g.s.Map.At(p)
		if !t.Hidden() || g.rng.IntN(SearchChance) != 0 {
			continue
		}
		found = true
		g.s.Map.Set(p, t.Found())
		if t == world.SecretDoor {
			g.logf(MsgInfo, "You find a hidden door!")
		} else {
			g.logf(MsgInfo, "You find "+WithArticle(TileInfo(g.data, t.Found()).Name)+".")
		}
	}
	if !found {
		g.logf(MsgInfo, "You search, but find nothing.")
	}
}

// Trap numbers (NetHack's dart and poison-needle traps, its teleportation
// trap and squeaky board, here an alarm).
const (
	DartTrapDamage   = 2 // HP a dart takes, plus 0..depth more
	PoisonTrapTurns  = 5 // turns of poison a needle gives
	AlarmRange       = 20
	AlarmHurrySteps  = 5 // steps each monster within AlarmRange walking steps takes towards the player at the alarm
	teleportTriesMax = 200
)

// springTrap sets off the trap under the player, if any: it is then known
// (a hidden trap becomes its found twin) and does what it does. Only the
// player springs traps: monsters know their level.
func (g *Game) springTrap() {
	p := g.player()
	t := g.s.Map.At(p.Pos)
	if !t.Trap() {
		return
	}
	t = t.Found()
	g.s.Map.Set(p.Pos, t)
	switch t {
	case world.DartTrap:
		dmg := DartTrapDamage + g.rng.IntN(g.s.Depth+1)
		if g.unharmed(p) {
			g.logf(MsgEnemyHit, "A dart shoots out at you, but you are unharmed (god mode).")
		} else {
			g.logf(MsgEnemyHit, fmt.Sprintf("A dart shoots out at you for %d %s!", dmg, plural(dmg, "hit point", "hit points")))
		}
		g.hurt(p, dmg, "a dart trap", fmt.Sprintf("it hit you for %d", dmg), false)
	case world.PoisonTrap:
		g.logf(MsgStatus, "A poisoned needle pricks you!")
		g.addEffect(p, EffectPoison, PoisonTrapTurns)
	case world.TeleportTrap:
		g.logf(MsgStatus, "You feel a wrenching sensation!")
		g.teleportPlayer()
	case world.AlarmTrap:
		g.logf(MsgEnemyHit, "A loud alarm rings out!")
		g.alarm()
	}
}

// teleportPlayer moves the player to a random free tile that the down stairs
// can be walked to from (never into a closed vault), not a trap.
func (g *Game) teleportPlayer() {
	m := g.s.Map
	var stairs world.Pos
	for i, t := range m.Tiles {
		if t == world.DownStairs {
			stairs = world.Pos{X: i % m.W, Y: i / m.W}
		}
	}
	g.dist.Compute(m, stairs, world.Unreached)
	for range teleportTriesMax {
		q := world.Pos{X: g.rng.IntN(m.W), Y: g.rng.IntN(m.H)}
		if m.At(q).Walkable() && !m.At(q).Trap() && g.dist.At(q) != world.Unreached && g.blockerAt(q) == nil {
			g.player().Pos = q
			return
		}
	}
}

// alarm draws the monsters: each living hostile monster within AlarmRange
// walking steps of the player hurries up to AlarmHurrySteps steps towards
// them, in actor order.
func (g *Game) alarm() {
	g.dist.Compute(g.s.Map, g.player().Pos, AlarmRange)
	for i := 1; i < len(g.s.Actors); i++ {
		m := &g.s.Actors[i]
		if !m.Alive() || m.AI != AIHostile || g.dist.At(m.Pos) == world.Unreached {
			continue
		}
		for range AlarmHurrySteps {
			if g.dist.At(m.Pos) <= 1 {
				break
			}
			g.stepDownhill(m)
		}
	}
}

// takeOffering is the shrine's choice (Brogue's altar cages): when the
// player picks up an item from an altar, the items on every other altar of
// the level vanish and the altars crumble to floor.
func (g *Game) takeOffering(from world.Pos, it Item) {
	if g.s.Map.At(from) != world.Altar {
		return
	}
	kept := g.s.Items[:0]
	for _, other := range g.s.Items {
		// What else lies on the altar taken from stays: the shrine lays
		// one item on each, so that is what the player put there (the
		// tester's four darts, one taken: three stay).
		if g.s.Map.At(other.Pos) != world.Altar || other.Pos == from {
			kept = append(kept, other)
		}
	}
	g.s.Items = kept
	// The player is told the offerings vanish, so they are not remembered
	// on altars out of sight either (a tester walked back for one).
	seen := g.s.Seen[:0]
	for _, s := range g.s.Seen {
		if s.Item == "" || g.s.Map.At(s.Pos) != world.Altar || s.Pos == from {
			seen = append(seen, s)
		}
	}
	if len(seen) == 0 {
		seen = nil // an empty memory saves as none
	}
	g.s.Seen = seen
	for i, t := range g.s.Map.Tiles {
		if t == world.Altar {
			g.s.Map.Tiles[i] = world.Floor
		}
	}
	g.logf(MsgStatus, "As you take the "+g.ItemName(it)+", the other offerings vanish and the altars crumble.")
}
