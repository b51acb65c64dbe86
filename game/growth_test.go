package game

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// killNeighbour kills the last monster (east of the player), left 1 HP so
// that the first blow that lands kills it (blows can miss).
func killNeighbour(t *testing.T, g *Game) {
	t.Helper()
	a := &g.s.Actors[len(g.s.Actors)-1]
	a.HP = 1
	for range 20 {
		if !a.Alive() || g.Over() {
			break
		}
		mustApply(t, g, Move(1, 0))
	}
	if a.Alive() {
		t.Fatal("the monster survived")
	}
}

func TestAKillGivesTheMonstersXP(t *testing.T) {
	g := arena("orc")
	killNeighbour(t, g)
	if gr := g.Growth(); gr.XP != 35 || gr.Level != 1 || gr.Next != 350 || gr.Pending {
		t.Errorf("after killing an orc: %+v, want 35/350 XP at level 1", gr)
	}
	if got := lastMsg(g); got != "You gain 35 experience points." {
		t.Errorf("last message %q", got)
	}
}

func TestLevelsNeed350Then500Then650XP(t *testing.T) {
	for lvl, want := range map[int]int{1: 350, 2: 500, 3: 650, 4: 800} {
		if got := XPToNextLevel(lvl); got != want {
			t.Errorf("level %d needs %d XP, want %d", lvl, got, want)
		}
	}
	g := arena("orc")
	g.s.XP = 350 - 36
	killNeighbour(t, g) // 349: one short
	if g.Growth().Pending {
		t.Fatal("a level-up at 349 XP")
	}
	g.s.Actors = append(g.s.Actors, newMonster(orc(), world.Pos{X: 3, Y: 2})) // over the first one's remains
	killNeighbour(t, g)                                                       // 384
	if gr := g.Growth(); !gr.Pending || gr.XP != 384 {
		t.Fatalf("at 384 XP: %+v, want a level-up waiting", gr)
	}
	if got := g.s.Log[len(g.s.Log)-1].Text; got != "You advance to level 2!" {
		t.Errorf("last message %q", got)
	}
	mustApply(t, g, LevelUp(StatPower))
	if gr := g.Growth(); gr != (Growth{Level: 2, XP: 34, Next: 500}) {
		t.Errorf("after choosing: %+v, want level 2 with 34/500 XP", gr)
	}
}

func TestEachLevelUpChoiceRaisesItsStat(t *testing.T) {
	for _, c := range []struct {
		stat                Stat
		hp, maxHP, pow, def int
		msg                 string
	}{
		{StatHP, 25, 50, 5, 2, "Your health improves!"},
		{StatPower, 5, 30, 6, 2, "You feel stronger!"},
		{StatDefense, 5, 30, 5, 3, "Your movements are getting swifter!"},
	} {
		g := arena("orc")
		g.s.Actors[0].HP = 5
		g.s.XP = 350
		turn := g.Turn()
		mustApply(t, g, LevelUp(c.stat))
		p := g.Player()
		if p.HP != c.hp || p.MaxHP != c.maxHP || p.Power != c.pow || p.Defense != c.def || lastMsg(g) != c.msg {
			t.Errorf("stat %d: %d/%d HP, power %d, defense %d, %q; want %d/%d, %d, %d, %q",
				c.stat, p.HP, p.MaxHP, p.Power, p.Defense, lastMsg(g), c.hp, c.maxHP, c.pow, c.def, c.msg)
		}
		if g.Turn() != turn || g.s.Actors[1].Pos != (world.Pos{X: 3, Y: 2}) || p.HP != c.hp {
			t.Errorf("stat %d: the level-up took a turn", c.stat)
		}
	}
}

func TestAWaitingLevelUpRefusesEveryOtherCommand(t *testing.T) {
	g := arena("orc")
	refused(t, g, LevelUp(StatHP), "You have no level-up to spend.")
	g.s.XP = 350
	give(g, HealthPotion)
	for _, c := range []Command{Wait(), Move(0, 1), PickUp(), Use(0, world.Pos{}), Drop(0), Descend(), CheatCommand(CheatHeal, "")} {
		refused(t, g, c, "Choose what your new level raises first.")
	}
	refused(t, g, LevelUp(0), "Invalid entry.")
	refused(t, g, LevelUp(9), "Invalid entry.")
	mustApply(t, g, LevelUp(StatDefense))
	mustApply(t, g, Wait())
}

func TestALevelUpWaitingForItsChoiceSurvivesSaveAndResume(t *testing.T) {
	g := arena("orc")
	g.s.XP = 340
	killNeighbour(t, g)
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	h, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	if gr := h.Growth(); !gr.Pending || gr.Level != 1 {
		t.Fatalf("resumed: %+v, want the level-up still waiting", gr)
	}
	if _, err := h.Apply(Wait()); err == nil {
		t.Error("the resumed game took a turn before the choice")
	}
	mustApply(t, h, LevelUp(StatHP))
	if gr := h.Growth(); gr.Level != 2 || gr.XP != 25 || h.Player().MaxHP != 50 {
		t.Errorf("after choosing on the resumed game: %+v, max HP %d", gr, h.Player().MaxHP)
	}
}

func TestXPForTwoLevelsAsksTwice(t *testing.T) {
	g := arena("orc")
	g.s.XP = 350 + 500 + 1
	mustApply(t, g, LevelUp(StatPower))
	if gr := g.Growth(); !gr.Pending || gr.Level != 2 || lastMsg(g) != "You advance to level 3!" {
		t.Fatalf("after one choice: %+v, %q; want level 3 waiting", gr, lastMsg(g))
	}
	mustApply(t, g, LevelUp(StatPower))
	if gr := g.Growth(); gr != (Growth{Level: 3, XP: 1, Next: 650}) || g.Player().Power != 7 {
		t.Errorf("after two choices: %+v, power %d", gr, g.Player().Power)
	}
}

// growthCommands returns n commands drawn from seed that exercise growth and
// equipment: moves and waits, wearing and dropping slots 0–3, picking up,
// and level-up choices (refused when none waits).
func growthCommands(seed uint64, n int) []Command {
	rng := rand.New(rand.NewPCG(seed, 12))
	cmds := make([]Command, n)
	for i := range cmds {
		switch r := rng.IntN(20); {
		case r < 3:
			cmds[i] = LevelUp(Stat(1 + rng.IntN(3)))
		case r < 5:
			cmds[i] = Use(rng.IntN(4), world.Pos{})
		case r == 5:
			cmds[i] = Drop(rng.IntN(4))
		case r == 6:
			cmds[i] = PickUp()
		default:
			d := world.Directions8[rng.IntN(8)]
			cmds[i] = Move(d.X, d.Y)
		}
	}
	return cmds
}

// growthGame starts seed's game with the four pieces of equipment and
// XP for a level-up, so that commands meet equipment and choices at once.
func growthGame(seed uint64) *Game {
	g := New(seed, testData)
	for _, k := range []ItemKind{Dagger, LeatherArmour, Sword, ChainMail} {
		g.Apply(CheatCommand(CheatCreate, k))
	}
	g.s.XP = 900
	return g
}

func TestGrowthAndEquipmentReplayExactly(t *testing.T) {
	for seed := range uint64(6) {
		cmds := growthCommands(seed, 500)
		whole := growthGame(seed)
		snap, _ := whole.Encode()
		var journal []Command
		for i, c := range cmds {
			if _, err := whole.Apply(c); err == nil {
				back, _ := DecodeCommand(EncodeCommand(c))
				journal = append(journal, back)
			}
			if i == 250 { // a save and resume midway plays on the same
				blob, _ := whole.Encode()
				resumed, err := Decode(blob, testData)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range cmds[251:] {
					resumed.Apply(c)
				}
				defer func(seed uint64, resumed *Game) {
					a, _ := whole.Encode()
					b, _ := resumed.Encode()
					if !bytes.Equal(a, b) {
						t.Errorf("seed %d: the resumed game diverged", seed)
					}
				}(seed, resumed)
			}
		}
		replayed, err := Decode(snap, testData)
		if err != nil {
			t.Fatal(err)
		}
		if err := replayed.Replay(journal); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		a, _ := whole.Encode()
		b, _ := replayed.Encode()
		if !bytes.Equal(a, b) {
			t.Errorf("seed %d: the journal replayed differs", seed)
		}
		if gr := whole.Growth(); gr.Level < 2 {
			t.Errorf("seed %d: never levelled up (%+v); the test does not test growth", seed, gr)
		}
		worn := 0
		for _, m := range whole.Messages(0) {
			if len(m.Text) > 14 && m.Text[:14] == "You equip the " {
				worn++
			}
		}
		if worn == 0 {
			t.Errorf("seed %d: nothing was ever worn; the test does not test equipment", seed)
		}
	}
}

func TestATurnsResultNamesTheMonstersKilledAndTheLevelReached(t *testing.T) {
	g := arena("orc")
	g.s.XP = 350 - 35
	var slain []string
	for range 30 {
		res, err := g.Apply(Move(1, 0))
		if err != nil {
			t.Fatal(err)
		}
		if res.Level != 0 {
			t.Fatalf("a move reported level %d", res.Level)
		}
		if slain = res.Slain; slain != nil {
			break
		}
	}
	if len(slain) != 1 || slain[0] != "orc" {
		t.Fatalf("the killing blow's Result.Slain = %q, want [orc]", slain)
	}
	res, err := g.Apply(LevelUp(StatHP))
	if err != nil || res.Level != 2 || res.Slain != nil {
		t.Errorf("choosing the level-up: %+v, %v; want Level 2", res, err)
	}
	if res, err = g.Apply(Wait()); err != nil || res.Slain != nil || res.Level != 0 {
		t.Errorf("a turn that killed nothing and chose nothing: %+v, %v", res, err)
	}
}
