package game

// This file names the map's tiles for the player: each tile kind's id in
// tiles.json (game/content), where its name and one-line description are
// data, and what look mode says of a tile (nothing on the
// map goes unexplained).

import (
	"fmt"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// tileIDs are the ids of tiles.json for each tile kind, indexed by
// world.Tile. CheckData refuses data that misses one.
var tileIDs = [...]string{
	world.Wall:         "wall",
	world.Floor:        "floor",
	world.DownStairs:   "down stairs",
	world.Gravel:       "gravel",
	world.ShallowWater: "shallow water",
	world.DeepWater:    "deep water",
	world.Stalactite:   "stalactite",
	world.Stalagmite:   "stalagmite",
	world.UpStairs:     "up stairs",
	// doors, altars and traps; hidden tiles are named as what they look like
	world.SecretDoor:         "wall",
	world.Door:               "door",
	world.Altar:              "altar",
	world.HiddenDartTrap:     "floor",
	world.DartTrap:           "dart trap",
	world.HiddenPoisonTrap:   "floor",
	world.PoisonTrap:         "poison needle trap",
	world.HiddenTeleportTrap: "floor",
	world.TeleportTrap:       "teleport trap",
	world.HiddenAlarmTrap:    "floor",
	world.AlarmTrap:          "alarm trap",
}

// TileKinds returns every tile kind the map can show, in the order of
// world's constants: what the help screen's legend lists. Hidden tiles
// (a secret door, a hidden trap) are not among them: they show as what
// they look like (world.Tile.Apparent).
func TileKinds() []world.Tile {
	var out []world.Tile
	for t := world.Tile(0); t.Valid(); t++ {
		if !t.Hidden() {
			out = append(out, t)
		}
	}
	return out
}

// TileID returns t's id in tiles.json ("deep water"), or "" for a tile this
// version does not know.
func TileID(t world.Tile) string {
	if int(t) < len(tileIDs) {
		return tileIDs[t]
	}
	return ""
}

// TileInfo returns the name and description of tile kind t from data; a
// tile missing from it (data that did not pass CheckData) is named by its
// id, with no description.
func TileInfo(data *content.Tables, t world.Tile) content.Tile {
	if k, ok := data.Tile(TileID(t)); ok {
		return k
	}
	return content.Tile{ID: TileID(t), Name: TileID(t)}
}

// checkTiles reports a tile kind without its tiles.json entry, or an entry
// that names no tile kind.
func checkTiles(t *content.Tables) error {
	for _, k := range TileKinds() {
		if TileID(k) == "" {
			return fmt.Errorf("tile kind %d has no id in game/tiles.go", k)
		}
		if _, ok := t.Tile(TileID(k)); !ok {
			return fmt.Errorf("tiles.json: no entry for the tile %q", TileID(k))
		}
	}
	for i, k := range t.Tiles {
		known := false
		for _, tk := range TileKinds() {
			known = known || TileID(tk) == k.ID
		}
		if !known {
			return fmt.Errorf("tiles.json: entry %d (%q): no tile has this id", i, k.ID)
		}
	}
	return nil
}
