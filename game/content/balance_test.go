package content

import (
	"strings"
	"testing"
)

// TestBalanceIsDataWithEveryDepthsSpawns: the stairs' rest, a potion's heal
// and the spawn counts by depth are read from balance.json.
func TestBalanceIsDataWithEveryDepthsSpawns(t *testing.T) {
	b := Default().Balance
	if b.HealthPotionHeal <= 0 || b.StairsRestPercent < 0 || b.StairsRestPercent > 100 {
		t.Errorf("balance = %+v", b)
	}
	for d := 1; d <= len(b.Regions); d++ {
		if r, ok := b.RegionsAt(d); !ok || r.Depth != d || r.MaxMonsters < r.MinMonsters {
			t.Errorf("depth %d: %+v %v", d, r, ok)
		}
	}
	if _, ok := b.RegionsAt(len(b.Regions) + 1); ok {
		t.Errorf("a depth past the rows has spawn counts")
	}
}

func TestBadBalanceNamesTheFieldOrRow(t *testing.T) {
	rows := `"regions": [{"depth": 1, "min_monsters": 1, "max_monsters": 2, "max_items": 1}, {"depth": 2, "min_monsters": 1, "max_monsters": 3, "max_items": 1}]`
	for _, c := range []struct{ name, json, want string }{
		{"no rest", `{"health_potion_heal": 10, ` + rows + `}`, "stairs_rest_percent is missing"},
		{"rest over 100", `{"stairs_rest_percent": 101, "health_potion_heal": 10, ` + rows + `}`, "stairs_rest_percent 101 is not 0..100"},
		{"a potion that heals nothing", `{"stairs_rest_percent": 20, "health_potion_heal": 0, ` + rows + `}`, "health_potion_heal 0 must be above 0"},
		{"a typo", `{"stairs_rest_percent": 20, "health_potion_heal": 10, "regoins": []}`, `unknown field "regoins"`},
		{"a gap in depths", `{"stairs_rest_percent": 20, "health_potion_heal": 10, ` + strings.Replace(rows, `"depth": 2`, `"depth": 3`, 1) + `}`, "regions entry 1: depth 3 where depth 2 comes next"},
		{"min above max", `{"stairs_rest_percent": 20, "health_potion_heal": 10, ` + strings.Replace(rows, `"max_monsters": 2`, `"max_monsters": 0`, 1) + `}`, "regions entry 0: max_monsters 0 is below min_monsters 1"},
		{"negative items", `{"stairs_rest_percent": 20, "health_potion_heal": 10, ` + strings.Replace(rows, `"max_items": 1}]`, `"max_items": -1}]`, 1) + `}`, "regions entry 1: counts must not be negative"},
	} {
		if _, err := ParseBalance([]byte(c.json)); err == nil || !strings.HasPrefix(err.Error(), "balance.json: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
	if b, err := ParseBalance([]byte(`{"stairs_rest_percent": 0, "health_potion_heal": 10, ` + rows + `}`)); err != nil || b.StairsRestPercent != 0 || len(b.Regions) != 2 {
		t.Errorf("no rest at all is allowed: %+v, %v", b, err)
	}
}
