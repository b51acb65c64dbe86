package game

// This file is the game data a game is played with: what the rules need of
// package content's tables, and the loader that checks it.

import (
	"fmt"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
)

// LoadData reads the embedded data files (content.Load) and checks that they
// fit this game's rules (CheckData). A server calls it once at start and
// passes the tables to every New and Decode.
func LoadData() (*content.Tables, error) {
	t, err := content.Load()
	if err != nil {
		return nil, err
	}
	if err := CheckData(t); err != nil {
		return nil, err
	}
	return t, nil
}

// CheckData reports, as an error naming the data file, what in t the rules
// cannot play: a depth from 1 to mapgen.LastDepth where no monster or no item
// can spawn or whose spawn counts balance.json lacks, a tile kind without its tiles.json entry (its name and
// description) or an entry for no tile, an item in items.json without a
// rule in items.go, a rule without its items.json entry (its look), or
// equipment without its "equip" (or "equip" on an item that is not worn),
// a monster that shoots farther than it sees, or a pack kind that spawns in
// a group smaller than PackNeed.
func CheckData(t *content.Tables) error {
	for d := 1; d <= mapgen.LastDepth; d++ {
		for _, table := range []struct {
			name string
			rows []content.Spawn
		}{{"monsters", t.MonsterSpawns}, {"items", t.ItemSpawns}} {
			total := 0
			for _, r := range table.rows {
				total += r.WeightAt(d)
			}
			if total == 0 {
				return fmt.Errorf("spawns.json: no %s can spawn on depth %d", table.name, d)
			}
		}
	}
	for d := 1; d <= mapgen.LastDepth; d++ {
		if _, ok := t.Balance.RegionsAt(d); !ok {
			return fmt.Errorf("balance.json: regions has no row for depth %d", d)
		}
	}
	if err := checkTiles(t); err != nil {
		return err
	}
	for i, m := range t.Monsters {
		switch {
		case m.Ranged != nil && m.Ranged.Range > m.Vision:
			return fmt.Errorf("monsters.json: entry %d (%q): it shoots %d tiles but sees %d", i, m.ID, m.Ranged.Range, m.Vision)
		case m.AI == content.AIPack && m.Group < PackNeed:
			return fmt.Errorf("monsters.json: entry %d (%q): a pack kind spawns in a group of at least %d (group %d)", i, m.ID, PackNeed, m.Group)
		}
	}
	for i, it := range t.Items {
		if !ItemKind(it.ID).Known() {
			return fmt.Errorf("items.json: entry %d (%q): no item rule has this id", i, it.ID)
		}
	}
	for _, k := range ItemKinds() {
		it, ok := t.Item(string(k))
		switch {
		case !ok:
			return fmt.Errorf("items.json: no entry for %q, which has an item rule", k)
		case k.Wearable() && it.Equip == nil:
			return fmt.Errorf("items.json: %q is equipment but has no \"equip\" (slot and bonuses)", k)
		case !k.Wearable() && it.Equip != nil:
			return fmt.Errorf("items.json: %q has \"equip\" but its rule is not equipment", k)
		}
	}
	return nil
}
