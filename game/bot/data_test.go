package bot

import (
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
)

// TestEveryMonsterOnTheSpawnTablesCanHurtAFreshCharacter is a data
// invariant (not a balance number, so it may fail CI): every
// monster that can spawn on some depth and attacks (ai "hostile") hits a
// new character, of game.PlayerDefense and nothing worn, for at least 1 HP.
// Before the tuning, rats (power 2 against defense 2) never could.
// Herbivores (bats) never attack, so their power does not matter.
func TestEveryMonsterOnTheSpawnTablesCanHurtAFreshCharacter(t *testing.T) {
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, s := range data.MonsterSpawns {
		spawns := false
		for d := 1; d <= mapgen.LastDepth; d++ {
			spawns = spawns || s.WeightAt(d) > 0
		}
		m, ok := data.Monster(s.ID)
		if !spawns || !ok || m.AI != content.AIHostile {
			continue
		}
		checked++
		if dmg := game.Damage(m.Power, game.PlayerDefense); dmg < 1 {
			t.Errorf("the %s (power %d, depths %d..%d) cannot hurt a fresh character of defense %d", m.Name, m.Power, s.MinDepth, s.MaxDepth, game.PlayerDefense)
		}
	}
	if checked == 0 {
		t.Fatal("no hostile monster on the spawn tables")
	}
}
