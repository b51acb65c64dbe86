package game

import (
	"bytes"
	"os"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// alone returns an arena game with the player alone in the room.
func alone() *Game {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	return g
}

// waitN lets n turns pass.
func waitN(t *testing.T, g *Game, n int) {
	t.Helper()
	for range n {
		mustApply(t, g, Wait())
	}
}

func TestThePlayerRegeneratesOneHPEveryNTurnsFewerAtHigherLevels(t *testing.T) {
	for _, tc := range []struct {
		name  string
		level int
		every int
	}{
		{"a level 1 character regains 1 HP every 30 turns", 1, 30},
		{"a level 2 character regains 1 HP every 22 turns", 2, 22},
		{"a level 3 character regains 1 HP every 18 turns", 3, 18},
		{"a level 5 character regains 1 HP every 14 turns", 5, 14},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RegenEvery(tc.level); got != tc.every {
				t.Fatalf("RegenEvery(%d) = %d, want %d", tc.level, got, tc.every)
			}
			g := alone()
			g.s.CharLevel = tc.level
			g.s.Actors[0].HP = 5
			waitN(t, g, 3*tc.every)
			if hp := g.Player().HP; hp != 5+3 {
				t.Errorf("after %d turns HP = %d, want 8", 3*tc.every, hp)
			}
		})
	}
	t.Run("regeneration stops at full HP", func(t *testing.T) {
		g := alone()
		g.s.Actors[0].HP = 29
		waitN(t, g, 60)
		if hp := g.Player().HP; hp != 30 {
			t.Errorf("HP = %d, want 30", hp)
		}
	})
	t.Run("a monster in sight does not regenerate by the player's rate", func(t *testing.T) {
		// Monsters out of sight heal by their own rule (ai.go,
		// MonsterRegenTurns); in sight they do not heal at all.
		g := arena("orc")
		g.s.Actors[1].HP = 1
		g.s.Actors[1].AI = AINone
		g.updateFOV()
		if !g.Visible(g.s.Actors[1].Pos) {
			t.Fatal("the orc is out of sight")
		}
		waitN(t, g, 30)
		if hp := g.s.Actors[1].HP; hp != 1 {
			t.Errorf("the orc in sight has %d HP, want still 1", hp)
		}
	})
}

func TestRegenerationStopsWhilePoisonedOrWeakFromHunger(t *testing.T) {
	t.Run("a poisoned player does not regenerate", func(t *testing.T) {
		g := alone()
		g.s.Actors[0].HP = 28
		g.addEffect(g.player(), EffectPoison, 100)
		waitN(t, g, 20)
		if hp := g.Player().HP; hp != 28-20*PoisonDamage {
			t.Errorf("HP = %d, want %d (poison only)", hp, 28-20)
		}
	})
	t.Run("a player weak from hunger does not regenerate", func(t *testing.T) {
		g := alone()
		g.s.Hunger = StartNutrition - WeakBelow
		g.s.Actors[0].HP = 10
		waitN(t, g, 30)
		if hp := g.Player().HP; hp != 10 {
			t.Errorf("HP = %d, want 10", hp)
		}
	})
}

func TestANewGameStartsFullAndSpendsOneNutritionATurn(t *testing.T) {
	g := alone()
	if n, h := g.Nutrition(), g.Hunger(); n != StartNutrition || h != HungerFed {
		t.Fatalf("a new game's nutrition is %d (%v), want %d, not hungry", n, h, StartNutrition)
	}
	waitN(t, g, 10)
	if n := g.Nutrition(); n != StartNutrition-10 {
		t.Errorf("after 10 turns nutrition %d, want %d", n, StartNutrition-10)
	}
	if _, err := g.Apply(Move(0, 0)); err == nil {
		t.Fatal("a refused move was accepted")
	}
	if n := g.Nutrition(); n != StartNutrition-10 {
		t.Errorf("a refused command spent nutrition: %d", n)
	}
}

func TestHungerGetsWorseWithAMessageAtEachState(t *testing.T) {
	for _, tc := range []struct {
		name  string
		at    int // nutrition before the turn
		state Hunger
		msg   string
	}{
		{"past the full stomach the player is no longer satiated", StartNutrition + 1, HungerFed, "You are no longer satiated."},
		{"at 300 the player is getting hungry", HungryBelow + 1, HungerHungry, "You are getting hungry."},
		{"at 100 the player feels weak", WeakBelow + 1, HungerWeak, "You feel weak from hunger."},
		{"at 30 the player feels faint", FaintingBelow + 1, HungerFainting, "You feel faint from hunger."},
		{"at 0 the player is starving", 1, HungerStarving, "You are starving!"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := alone()
			g.s.Hunger = StartNutrition - tc.at
			logs := g.LogLen()
			mustApply(t, g, Wait())
			if g.Hunger() != tc.state {
				t.Errorf("state %q, want %q", g.Hunger(), tc.state)
			}
			var said []string
			for _, m := range g.Messages(logs) {
				said = append(said, m.Text)
			}
			if len(said) == 0 || said[0] != tc.msg {
				t.Errorf("the turn said %q, want %q", said, tc.msg)
			}
			logs = g.LogLen()
			if tc.state != HungerStarving {
				mustApply(t, g, Wait())
				if g.LogLen() != logs {
					t.Errorf("the next turn in the same state said %v again", g.Messages(logs))
				}
			}
		})
	}
	if HungerFed.String() != "" || HungerHungry.String() != "Hungry" || HungerStarving.String() != "Starving" {
		t.Error("the status line's names of hunger are wrong")
	}
}

func TestWeakFromHungerThePlayerHitsForOneLess(t *testing.T) {
	g := alone()
	full := g.PlayerPower()
	g.s.Hunger = StartNutrition - HungryBelow
	if g.PlayerPower() != full {
		t.Errorf("hungry: power %d, want %d", g.PlayerPower(), full)
	}
	g.s.Hunger = StartNutrition - WeakBelow
	if g.PlayerPower() != full-WeakPowerLoss {
		t.Errorf("weak: power %d, want %d", g.PlayerPower(), full-WeakPowerLoss)
	}
}

func TestEatingAFoodRationRestoresNutrition(t *testing.T) {
	t.Run("a ration restores 800 nutrition and is eaten up", func(t *testing.T) {
		g := alone()
		g.s.Hunger = StartNutrition - 200
		give(g, FoodRation)
		mustApply(t, g, Use(0, world.Pos{}))
		if n := g.Nutrition(); n != 200+RationNutrition-1 {
			t.Errorf("nutrition %d, want %d (the eating turn spends one)", n, 200+RationNutrition-1)
		}
		if len(g.Inventory()) != 0 || lastMsg(g) != "You eat the food ration. That hit the spot." {
			t.Errorf("inventory %v, message %q", g.Inventory(), lastMsg(g))
		}
	})
	t.Run("a ration that fills the player past full says satiated", func(t *testing.T) {
		g := alone()
		give(g, FoodRation)
		mustApply(t, g, Use(0, world.Pos{}))
		if g.Hunger() != HungerSatiated || lastMsg(g) != "You eat the food ration. You feel satiated." {
			t.Errorf("state %q, message %q", g.Hunger(), lastMsg(g))
		}
	})
	t.Run("a satiated player cannot eat and loses no turn", func(t *testing.T) {
		g := alone()
		g.s.Hunger = StartNutrition - (StartNutrition + 1)
		give(g, FoodRation)
		refused(t, g, Use(0, world.Pos{}), "You are too full to eat.")
	})
	t.Run("nutrition never rises above 2000", func(t *testing.T) {
		g := alone()
		g.s.Hunger = StartNutrition - StartNutrition
		give(g, FoodRation)
		mustApply(t, g, Use(0, world.Pos{}))
		if n := g.Nutrition(); n != MaxNutrition-1 {
			t.Errorf("nutrition %d, want %d", n, MaxNutrition-1)
		}
	})
}

func TestAStarvingPlayerLosesOneHPATurnAndStarvesToDeath(t *testing.T) {
	g := alone()
	g.s.Hunger = StartNutrition
	g.s.Actors[0].HP = 3
	mustApply(t, g, Wait())
	if hp := g.Player().HP; hp != 3-StarveDamage {
		t.Errorf("HP %d, want 2", hp)
	}
	for i := 0; i < 5 && !g.Over(); i++ {
		g.Apply(Wait())
	}
	if !g.Over() || g.Cause() != "starved to death on depth 1" {
		t.Errorf("over %v, cause %q", g.Over(), g.Cause())
	}
	if g.Nutrition() != 0 {
		t.Errorf("nutrition %d, want 0, never below", g.Nutrition())
	}
}

func TestNutritionSurvivesASaveAndAnOldSaveIsFull(t *testing.T) {
	t.Run("nutrition comes back from a save", func(t *testing.T) {
		g := alone()
		g.s.Hunger = StartNutrition - 500
		waitN(t, g, 7)
		give(g, FoodRation)
		mustApply(t, g, Use(0, world.Pos{}))
		blob, err := g.Encode()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(blob, testData)
		if err != nil {
			t.Fatal(err)
		}
		if back.Nutrition() != g.Nutrition() || back.Nutrition() != 500+RationNutrition-8 {
			t.Errorf("nutrition %d after loading, %d before, want %d", back.Nutrition(), g.Nutrition(), 500+RationNutrition-8)
		}
	})
	t.Run("a save from before hunger loads with a full stomach", func(t *testing.T) {
		blob, err := os.ReadFile(fixturePath)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(blob, []byte(`"Hunger"`)) {
			t.Fatal("the old save holds a Hunger key")
		}
		g, err := Decode(blob, testData)
		if err != nil {
			t.Fatal(err)
		}
		if g.Nutrition() != StartNutrition || g.Hunger() != HungerFed {
			t.Errorf("nutrition %d (%q), want %d", g.Nutrition(), g.Hunger(), StartNutrition)
		}
		mustApply(t, g, Wait())
		if g.Nutrition() != StartNutrition-1 {
			t.Errorf("after a turn, nutrition %d", g.Nutrition())
		}
	})
}

func TestFoodRationsLieAboutOneOrTwoALevel(t *testing.T) {
	total, levels := 0, 0
	for seed := range uint64(40) {
		g := New(seed, testData)
		for depth := 1; depth <= 6; depth++ {
			if depth > 1 {
				g.enterLevel(depth)
			}
			levels++
			for _, it := range g.Items() {
				if it.Kind == FoodRation {
					total++
				}
			}
		}
	}
	if mean := float64(total) / float64(levels); mean < 0.8 || mean > 2.5 {
		t.Errorf("%.2f food rations a level over %d levels, want about 1 to 2", mean, levels)
	} else {
		t.Logf("%.2f food rations a level", mean)
	}
}
