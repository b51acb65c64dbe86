package game

import (
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/content"
)

// testData is the embedded data, which the game's tests play with.
var testData = content.Default()

func TestTheEmbeddedDataFitsTheRules(t *testing.T) {
	if _, err := LoadData(); err != nil {
		t.Fatal(err)
	}
}

func TestDataTheRulesCannotPlayIsRefusedByName(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*content.Tables)
		want   string
	}{
		{"no items below depth 5", func(t *content.Tables) {
			for i := range t.ItemSpawns {
				t.ItemSpawns[i].MaxDepth = min(t.ItemSpawns[i].MaxDepth, 5)
			}
		}, "spawns.json: no items can spawn on depth 6"},
		{"no spawn counts for depth 6", func(t *content.Tables) {
			t.Balance.Regions = t.Balance.Regions[:5]
		}, "balance.json: regions has no row for depth 6"},
		{"an item without rules", func(t *content.Tables) {
			t.Items = append(t.Items, content.Item{ID: "wand of wonder", Glyph: '/'})
		}, `("wand of wonder"): no item rule`},
		{"equipment without its slot", func(t *content.Tables) {
			for i := range t.Items {
				if t.Items[i].ID == string(Sword) {
					t.Items[i].Equip = nil
				}
			}
		}, `"sword" is equipment but has no "equip"`},
		{"a potion with a slot", func(t *content.Tables) {
			t.Items[0].Equip = &content.Equip{Slot: content.SlotWeapon, Power: 9}
		}, `"health potion" has "equip" but its rule is not equipment`},
		{"a rule without data", func(t *content.Tables) { t.Items = t.Items[1:] }, `no entry for "health potion"`},
		{"a tile without its name", func(t *content.Tables) { t.Tiles = t.Tiles[:5] }, `tiles.json: no entry for the tile "deep water"`},
		{"a tile the game lacks", func(t *content.Tables) {
			t.Tiles = append(t.Tiles, content.Tile{ID: "lava", Name: "lava", Description: "Hot."})
		}, `tiles.json: entry 15 ("lava"): no tile has this id`},
		{"an archer that shoots farther than it sees", func(t *content.Tables) {
			for i := range t.Monsters {
				if t.Monsters[i].ID == "kobold archer" {
					t.Monsters[i].Vision = 3
				}
			}
		}, `("kobold archer"): it shoots 5 tiles but sees 3`},
		{"a pack that spawns alone", func(t *content.Tables) {
			for i := range t.Monsters {
				if t.Monsters[i].ID == "jackal" {
					t.Monsters[i].Group = 1
				}
			}
		}, `("jackal"): a pack kind spawns in a group of at least 3`},
	} {
		tb, err := content.Load()
		if err != nil {
			t.Fatal(err)
		}
		c.change(tb)
		if err := CheckData(tb); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}
