package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
)

// restModel is a game of seed 1 alone on its level, the player at hp HP
// having spent spent nutrition (game.StartNutrition - spent left).
func restModel(t *testing.T, hp, spent int) *Model {
	t.Helper()
	m := newModel(t, newFakeStore(), 1)
	press(m, "enter")
	adopt(t, m, editSave(t, withoutMonsters(t, m.game), func(state map[string]any) {
		state["Actors"].([]any)[0].(map[string]any)["HP"] = hp
		state["Hunger"] = spent
	}))
	return m
}

func TestRestingWaitsUntilHealedAndStopsWhenHungerChanges(t *testing.T) {
	t.Run("R rests until HP is full", func(t *testing.T) {
		m := restModel(t, 28, 0)
		turn := m.game.Turn()
		press(m, "R")
		drive(t, m)
		if hp := m.game.Player().HP; hp != 30 {
			t.Fatalf("HP %d after resting, want 30", hp)
		}
		if n := note(m); !strings.HasPrefix(n, "You rest for ") || !strings.HasSuffix(n, " turns and are fully healed.") {
			t.Errorf("note %q", n)
		}
		if rested := m.game.Turn() - turn; rested < 1 || rested > 2*game.RegenEvery(1) {
			t.Errorf("rested %d turns for 2 HP at level 1", rested)
		}
	})
	t.Run("a rest stops when the player gets hungry", func(t *testing.T) {
		m := restModel(t, 5, game.StartNutrition-game.HungryBelow-3)
		press(m, "R")
		drive(t, m)
		if h := m.game.Hunger(); h != game.HungerHungry {
			t.Fatalf("hunger %q after the rest, want Hungry", h)
		}
		if s := plain(m); !strings.Contains(s, "You are getting hungry.") || !strings.Contains(s, "Hungry") {
			t.Errorf("the screen does not say the player got hungry:\n%s", s)
		}
		if m.game.Nutrition() != game.HungryBelow {
			t.Errorf("the rest went on past the change: nutrition %d", m.game.Nutrition())
		}
	})
	t.Run("no rest at full health or weak from hunger", func(t *testing.T) {
		m := restModel(t, 30, 0)
		turn := m.game.Turn()
		press(m, "R")
		if note(m) != "You are already at full health." || m.game.Turn() != turn {
			t.Errorf("note %q, turns %d", note(m), m.game.Turn()-turn)
		}
		m = restModel(t, 10, game.StartNutrition-game.WeakBelow)
		press(m, "R")
		if note(m) != "Resting would not heal you: you are too hungry. Eat something." || m.game.Turn() != turn {
			t.Errorf("note %q", note(m))
		}
	})
}

func TestTheStatusLineShowsHunger(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spent int
		want  string
	}{
		{"a fed player shows no hunger", 0, ""},
		{"a hungry player reads Hungry", game.StartNutrition - game.HungryBelow, "Hungry"},
		{"a weak player reads Weak", game.StartNutrition - game.WeakBelow, "Weak"},
		{"a starving player reads Starving", game.StartNutrition, "Starving"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := restModel(t, 30, tc.spent)
			for _, w := range []int{100, 40} {
				m.Update(tea.WindowSizeMsg{Width: w, Height: 30})
				line := strings.Split(plain(m), "\n")
				status := ""
				for _, l := range line {
					if strings.HasPrefix(l, "HP") {
						status = l
					}
				}
				for _, word := range []string{"Hungry", "Weak", "Starving", "Satiated"} {
					if has := strings.Contains(status, word); has != (word == tc.want) {
						t.Errorf("at width %d the status line %q: %s shown %v", w, status, word, has)
					}
				}
			}
		})
	}
}

func TestTheHelpStatesRegenerationAndHungerWithTheirNumbers(t *testing.T) {
	m := newModel(t, newFakeStore(), 1)
	press(m, "enter")
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 120})
	press(m, "?")
	all := strings.Join(strings.Fields(plain(m)), " ")
	for _, want := range []string{
		"You regain 1 HP every 30 turns at level 1 (22 at level 2, 18 at 3, 14 at 5: half NetHack's rate), but not while poisoned or weak from hunger.",
		"you start with 1500, a food ration gives 800",
		"Hungry at 300, Weak at 100 (-1 power, no regeneration), Fainting at 30; at 0 you lose 1 HP a turn",
		"R rest until healed",
		"food ration",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the help does not say %q:\n%s", want, all)
		}
	}
}

// TestAFleeingMonsterInViewIsNamedOnceThenRestGoesOn: the tester's R was
// refused again and again by a coward fleeing five tiles off ("You cannot
// rest with the goblin in view"), while x already let it
// be. Resting treats it as explore does: named once, then R rests; a
// monster hunting the player, however far, still refuses R.
func TestAFleeingMonsterInViewIsNamedOnceThenRestGoesOn(t *testing.T) {
	m, foe := exploreToAMonster(t, 7)
	edit := func(fleeing bool) {
		adopt(t, m, editSave(t, m.game, func(state map[string]any) {
			actors := state["Actors"].([]any)
			actors[0].(map[string]any)["HP"] = float64(10)
			for _, a := range actors[1:] {
				a.(map[string]any)["AI"] = float64(game.AICoward)
				a.(map[string]any)["Fleeing"] = fleeing
				a.(map[string]any)["Asleep"] = false
				a.(map[string]any)["HP"] = float64(1)
			}
		}))
		m.scr = newPlay()
	}
	edit(true)
	press(m, ".") // it runs off: next to the player, even a coward fights
	press(m, ".")
	if _, seen := monsterInView(m.game); !seen {
		t.Skipf("the %s ran out of view", foe.Name)
	}
	rested := 0
	for range 3 {
		turn := m.game.Turn()
		press(m, "R")
		drive(t, m)
		if m.game.Turn() > turn+1 {
			rested++
		}
	}
	if rested < 1 {
		t.Errorf("R with only a fleeing %s in view rested on none of 3 presses; last note %q", foe.Name, note(m))
	}
	// The same monster, not fleeing, refuses the rest.
	edit(false)
	turn := m.game.Turn()
	press(m, "R")
	drive(t, m)
	if a, seen := monsterInView(m.game); seen && (m.game.Turn() != turn || !strings.HasPrefix(note(m), "You cannot rest with the "+a.Name)) {
		t.Errorf("R with a hunting %s in view: %d turns, note %q", a.Name, m.game.Turn()-turn, note(m))
	}
}

// TestExploreGoesOnWhileStarving: starving took 1 HP a turn and every x
// stopped after one step, "You stop: you are hurt." (the tester's last
// depth). Like poison, hunger's own damage stops a trip
// only once HP is low.
func TestExploreGoesOnWhileStarving(t *testing.T) {
	m := newModel(t, newFakeStore(), 7)
	press(m, "enter")
	adopt(t, m, editSave(t, withoutMonsters(t, m.game), func(state map[string]any) {
		a := state["Actors"].([]any)[0].(map[string]any)
		a["HP"], a["MaxHP"] = float64(90), float64(90)
		state["Hunger"] = game.StartNutrition // all spent: starving
	}))
	if m.game.Hunger() != game.HungerStarving {
		t.Fatalf("hunger %v, want Starving", m.game.Hunger())
	}
	turn := m.game.Turn()
	press(m, "x")
	drive(t, m)
	if m.game.Turn()-turn < 5 || note(m) == "You stop: you are hurt." {
		t.Errorf("x while starving walked %d turns, note %q", m.game.Turn()-turn, note(m))
	}
}

// A tester's rest ended short of full HP with no word of why: a new
// message (here the sound of an arrival) stops a rest, and the note now
// says the rest stopped and after how long.
func TestARestStoppedByNewsSaysSo(t *testing.T) {
	m := restModel(t, 5, 0)
	adopt(t, m, editSave(t, m.game, func(state map[string]any) { state["Wander"] = 3 })) // one arrives in 3 turns
	press(m, "R")
	drive(t, m)
	if m.game.Player().HP == m.game.Player().MaxHP {
		t.Fatal("the rest was not stopped before full health")
	}
	if n := note(m); !strings.HasPrefix(n, "You stop resting after ") {
		t.Errorf("the rest stopped with note %q and the screen:\n%s", n, plain(m))
	}
}
