package content

import (
	"strings"
	"testing"
)

func TestEmbeddedDataLoads(t *testing.T) {
	tb, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	cube, ok := tb.Monster("cube")
	if !ok || cube.Light == nil || cube.Light.Range != 4 || cube.Light.Color != (RGB{0x55, 0, 0}) {
		t.Errorf("gelatinous cube light = %+v, want range 4 #550000", cube.Light)
	}
	bandit, _ := tb.Monster("bandit")
	if bandit.Light == nil || bandit.Light.Range != 6 || bandit.Light.Color != (RGB{0xFF, 0xFF, 0x55}) {
		t.Errorf("bandit torch = %+v, want range 6 #FFFF55", bandit.Light)
	}
	if bat, _ := tb.Monster("bat"); bat.AI != AIHerbivore {
		t.Errorf("bats should be herbivores, got %q", bat.AI)
	}
}

func TestCavernsBringBatsSpidersAndCubesButNoWolvesOrRats(t *testing.T) {
	tb := Default()
	at3 := map[string]int{}
	for _, s := range tb.MonsterSpawns {
		at3[s.ID] = s.WeightAt(3)
	}
	for _, id := range []string{"bat", "spider", "cube"} {
		if at3[id] == 0 {
			t.Errorf("%s does not spawn in the caverns", id)
		}
	}
	for _, id := range []string{"wolf", "rat"} {
		if at3[id] != 0 {
			t.Errorf("%s spawns in the caverns", id)
		}
	}
}

func TestSpawnWeightAddsDepthOnlyWhenAsked(t *testing.T) {
	s := Spawn{Weight: 10, MinDepth: 2, MaxDepth: 4, AddDepth: true}
	for d, want := range map[int]int{1: 0, 2: 12, 4: 14, 5: 0} {
		if got := s.WeightAt(d); got != want {
			t.Errorf("weight at %d = %d, want %d", d, got, want)
		}
	}
}

func TestBadDataNamesTheFileAndTheEntry(t *testing.T) {
	good := func(name string) []byte { b, _ := files.ReadFile("data/" + name); return b }
	monsters, items, spawns := good("monsters.json"), good("items.json"), good("spawns.json")
	for _, c := range []struct {
		name                    string
		monsters, items, spawns string
		want                    string
	}{
		{"negative hp", strings.Replace(string(monsters), `"hp": 4`, `"hp": -4`, 1), string(items), string(spawns), `monsters.json: entry 0 ("rat"): hp -4`},
		{"bad colour", string(monsters), strings.Replace(string(items), `#c864ff`, `purple`, 1), string(spawns), `items.json: entry 0 ("health potion"): colour "purple"`},
		{"unknown ai", strings.Replace(string(monsters), `"ai": "herbivore"`, `"ai": "sleepy"`, 1), string(items), string(spawns), `monsters.json: entry 5 ("bat"): ai "sleepy"`},
		{"typo in a field", strings.Replace(string(monsters), `"vision"`, `"visoin"`, 1), string(items), string(spawns), `monsters.json: json: unknown field "visoin"`},
		{"spawn of nothing", string(monsters), string(items), strings.Replace(string(spawns), `{"id": "bat"`, `{"id": "dragon"`, 1), `spawns.json: monsters entry 5 ("dragon"): no monster entry`},
		{"upside-down depths", string(monsters), string(items), strings.Replace(string(spawns), `"min_depth": 3, "max_depth": 3`, `"min_depth": 3, "max_depth": 1`, 1), `spawns.json: monsters entry 5 ("bat"): depths 3..1`},
	} {
		_, err := Parse([]byte(c.monsters), []byte(c.items), []byte(c.spawns))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

// TestEveryMonsterAndTileMustBeExplained: a monster or a tile without a
// description is refused, naming the file and the entry (issue 12).
func TestEveryMonsterAndTileMustBeExplained(t *testing.T) {
	good := func(name string) []byte { b, _ := files.ReadFile("data/" + name); return b }
	monsters := strings.Replace(string(good("monsters.json")), `"description": "A brutish orc, tougher than it looks.", `, "", 1)
	if _, err := Parse([]byte(monsters), good("items.json"), good("spawns.json")); err == nil ||
		!strings.Contains(err.Error(), `monsters.json: entry 2 ("orc"): description must not be empty`) {
		t.Errorf("a monster without a description: err = %v", err)
	}
	for _, c := range []struct{ name, tiles, want string }{
		{"no description", `[{"id": "floor", "name": "floor"}]`, `tiles.json: entry 0 ("floor"): description must not be empty`},
		{"blank description", `[{"id": "floor", "name": "floor", "description": " "}]`, `tiles.json: entry 0 ("floor"): description must not be empty`},
		{"no name", `[{"id": "floor", "description": "Ground."}]`, `tiles.json: entry 0 ("floor"): id and name`},
		{"twice", `[{"id": "floor", "name": "floor", "description": "Ground."}, {"id": "floor", "name": "floor", "description": "Ground."}]`, `tiles.json: entry 1 ("floor"): id used twice`},
	} {
		if _, err := ParseTiles([]byte(c.tiles)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	tb := Default()
	for _, m := range tb.Monsters {
		if m.Description == "" {
			t.Errorf("monster %q has no description", m.ID)
		}
	}
	if len(tb.Tiles) == 0 {
		t.Error("no tiles loaded")
	}
}
