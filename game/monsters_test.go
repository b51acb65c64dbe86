package game

// Tests of the monsters: rolled blows and each behaviour, on small
// levels built by hand (hall, sight_test.go), seeded and deterministic.

import (
	"slices"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// lit returns a lit hall with the player at p and a monster of each kind
// at its tile, in order (Actors[1], Actors[2], ...). The player is given
// hp HP so that long fights end when the test says.
func lit(t *testing.T, p world.Pos, hp int, monsters ...placed) *Game {
	t.Helper()
	g := hall(false, p)
	g.s.Actors[0].HP, g.s.Actors[0].MaxHP = hp, hp
	for _, m := range monsters {
		k, ok := content.Default().Monster(m.kind)
		if !ok {
			t.Fatalf("no monster %q", m.kind)
		}
		g.s.Actors = append(g.s.Actors, newMonster(k, m.at))
	}
	g.updateFOV()
	return g
}

type placed struct {
	kind string
	at   world.Pos
}

func at(x, y int) world.Pos { return world.Pos{X: x, Y: y} }

func waits(t *testing.T, g *Game, n int) {
	t.Helper()
	for range n {
		if g.Over() {
			return
		}
		mustApply(t, g, Wait())
	}
}

func TestHitChancesAndDamageRanges(t *testing.T) {
	for _, c := range []struct {
		name           string
		acc, eva, want int
	}{
		{"an even fight lands 80% of blows", 0, 0, 80},
		{"your blows land 90% on a monster without evasion", PlayerAccuracy, 0, 90},
		{"an even monster's blows land 70% on you", 0, PlayerEvasion, 70},
		{"each point of accuracy adds 5%", 2, 0, 90},
		{"each point of evasion takes 5%", 0, 3, 65},
		{"no blow is sure", 10, 0, MaxHit},
		{"no blow is hopeless", 0, 30, MinHit},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := HitChance(c.acc, c.eva); got != c.want {
				t.Errorf("HitChance(%d, %d) = %d, want %d", c.acc, c.eva, got, c.want)
			}
		})
	}
	for _, c := range []struct {
		name                   string
		power, defense, lo, hi int
	}{
		{"a blow of 5 does 4 to 6", 5, 0, 4, 6},
		{"defense comes off both ends", 5, 2, 2, 4},
		{"a weak blow on armour does nothing", 3, 5, 0, 0},
		{"a blow of 9 does 6 to 12", 9, 0, 6, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			if lo, hi := DamageRange(c.power, c.defense); lo != c.lo || hi != c.hi {
				t.Errorf("DamageRange(%d, %d) = %d..%d, want %d..%d", c.power, c.defense, lo, hi, c.lo, c.hi)
			}
		})
	}
}

// TestBlowsMissSometimesAndTheirDamageVaries: 300 blows at a troll that
// cannot die miss about a fifth of the time and hit for every value of
// their range, none outside it.
func TestBlowsMissSometimesAndTheirDamageVaries(t *testing.T) {
	g := lit(t, at(5, 5), 100000, placed{"troll", at(6, 5)})
	g.s.Actors[1].HP, g.s.Actors[1].MaxHP = 100000, 100000
	from := g.LogLen()
	seen := map[int]bool{}
	misses := 0
	for range 300 {
		hp := g.s.Actors[1].HP
		mustApply(t, g, Move(1, 0))
		if d := hp - g.s.Actors[1].HP; d == 0 {
			misses++
		} else {
			seen[d] = true
		}
	}
	lo, hi := DamageRange(PlayerPower, 1)
	for d := range seen {
		if d < lo || d > hi {
			t.Errorf("a blow did %d, outside %d..%d", d, lo, hi)
		}
	}
	if len(seen) != hi-lo+1 {
		t.Errorf("blows did %v, want every value of %d..%d", seen, lo, hi)
	}
	if want := 300 * (100 - HitChance(PlayerAccuracy, 0)) / 100; misses < want/2 || misses > want*2 {
		t.Errorf("%d misses in 300 blows at %d%%", misses, HitChance(PlayerAccuracy, 0))
	}
	log := lastMessages(g, from)
	if !strings.Contains(log, "You miss the troll.") || !strings.Contains(log, "The troll attacks you but misses.") {
		t.Errorf("misses are not told:\n%.400s", log)
	}
}

func TestLookModeTellsWhatAMonsterDoesAndItsOdds(t *testing.T) {
	g := lit(t, at(5, 5), 30, placed{"kobold archer", at(9, 5)})
	got := g.Explain(at(9, 5))
	for _, want := range []string{"A small scaly kobold", "keeps its distance and shoots", "Hits you for 0–2 (70%)", "shoots for 1–3 up to 5 tiles (70%)", "You hit it for 4–6 (90%)"} {
		if !strings.Contains(got, want) {
			t.Errorf("look mode says %q, without %q", got, want)
		}
	}
	th, ok := g.Threat(at(9, 5))
	if !ok || !th.Ranged || th.Range != 5 || th.Shot != (Odds{Chance: 70, Min: 1, Max: 3}) {
		t.Errorf("Threat = %+v, %v", th, ok)
	}
}

func TestARangedMonsterShootsAlongAClearLineOnly(t *testing.T) {
	t.Run("in the open it shoots from where it stands", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"kobold archer", at(9, 5)})
		from := g.LogLen()
		waits(t, g, 10)
		log := lastMessages(g, from)
		if !strings.Contains(log, "The kobold archer shoots an arrow at you") {
			t.Errorf("no shot:\n%s", log)
		}
		if g.s.Actors[1].Pos != at(9, 5) {
			t.Errorf("the archer walked to %v instead of shooting", g.s.Actors[1].Pos)
		}
	})
	t.Run("a pillar in the line stops it shooting: it walks round", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"kobold archer", at(9, 5)})
		g.s.Map.Set(at(7, 5), world.Stalagmite) // blocks sight and shots
		g.s.Map.Set(at(7, 4), world.Stalagmite)
		g.s.Map.Set(at(7, 6), world.Stalagmite)
		g.updateFOV()
		if !g.Visible(at(9, 5)) {
			t.Skip("the pillar hides the archer altogether")
		}
		from := g.LogLen()
		mustApply(t, g, Wait())
		if strings.Contains(lastMessages(g, from), "shoots") {
			t.Errorf("the archer shot through a pillar")
		}
	})
	t.Run("another monster in the line stops it shooting", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"kobold archer", at(9, 5)}, placed{"orc", at(7, 5)})
		g.s.Actors[2].AI = AINone // a statue of an orc: it stays in the line
		from := g.LogLen()
		mustApply(t, g, Wait())
		if strings.Contains(lastMessages(g, from), "shoots") {
			t.Errorf("the archer shot through the orc")
		}
	})
	t.Run("next to you it steps back, then fights", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"kobold archer", at(6, 5)})
		mustApply(t, g, Wait())
		if d := g.s.Actors[1].Pos.Chebyshev(at(5, 5)); d != 2 {
			t.Errorf("the archer is %d tiles away after you closed in, want 2", d)
		}
		a := g.s.Actors[1].Pos
		from := g.LogLen()
		mustApply(t, g, Move(1, 0)) // next to it again
		if g.s.Actors[1].Pos != a || !strings.Contains(lastMessages(g, from), "The kobold archer attacks you") {
			t.Errorf("the archer stepped back twice running: at %v, %q", g.s.Actors[1].Pos, lastMessages(g, from))
		}
	})
	t.Run("its shot is the cause of death", func(t *testing.T) {
		g := lit(t, at(5, 5), 1, placed{"kobold archer", at(9, 5)})
		waits(t, g, 30)
		if !strings.HasPrefix(g.Cause(), "killed by a kobold archer on depth ") || !strings.Contains(g.Cause(), "(it shot you for ") {
			t.Errorf("cause %q", g.Cause())
		}
	})
	t.Run("a cobra's spit poisons", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"cobra", at(8, 5)})
		for range 20 {
			if g.s.Actors[0].Has(EffectPoison) {
				break
			}
			mustApply(t, g, Wait())
		}
		if !g.s.Actors[0].Has(EffectPoison) {
			t.Error("20 turns of spit and no poison")
		}
	})
}

func TestACowardFleesWhenHurtAndComesBackHealed(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"goblin", at(6, 5)})
	gob := func() *Actor { return &g.s.Actors[1] }
	gob().HP = 2 // of 8: below a third
	from := g.LogLen()
	mustApply(t, g, Wait())
	if !strings.Contains(lastMessages(g, from), "The goblin turns to flee!") || gob().Pos.Chebyshev(at(5, 5)) < 2 {
		t.Fatalf("a goblin at 2 of 8 HP did not flee: at %v\n%s", gob().Pos, lastMessages(g, from))
	}
	waits(t, g, 3)
	if d := gob().Pos.Chebyshev(at(5, 5)); d < 4 || !gob().Fleeing {
		t.Errorf("the fleeing goblin is %d tiles away", d)
	}
	// Out of sight (behind a wall), it heals and comes back.
	g.s.Actors[0].Pos = at(5, 5)
	for y := 1; y < 12; y++ {
		g.s.Map.Set(at(10, y), world.Wall)
	}
	gob().Pos = at(12, 5)
	g.updateFOV()
	waits(t, g, 5*MonsterRegenTurns)
	if gob().HP < 6 || gob().Fleeing {
		t.Fatalf("after %d turns out of sight the goblin has %d HP, fleeing %v", 5*MonsterRegenTurns, gob().HP, gob().Fleeing)
	}
	for y := 1; y < 12; y++ {
		g.s.Map.Set(at(10, y), world.Floor)
	}
	g.updateFOV()
	waits(t, g, 10)
	if d := gob().Pos.Chebyshev(g.Player().Pos); d > 1 {
		t.Errorf("the healed goblin did not come back: %d tiles away", d)
	}
}

func TestAPackHangsBackUntilItIsTogetherThenSurrounds(t *testing.T) {
	far := func(g *Game) { // the other two of the pack, in a closed room of their own
		for x := 50; x < 55; x++ {
			g.s.Map.Set(at(x, 30), world.Floor)
		}
	}
	g := lit(t, at(5, 5), 1000, placed{"jackal", at(10, 5)}, placed{"jackal", at(50, 30)}, placed{"jackal", at(53, 30)})
	far(g)
	hp := g.Player().HP
	waits(t, g, 6)
	if d := g.s.Actors[1].Pos.Chebyshev(at(5, 5)); d <= PackHoldOff || g.Player().HP != hp {
		t.Errorf("a jackal alone closed in: %d tiles away, %d HP lost", d, hp-g.Player().HP)
	}
	g = lit(t, at(5, 5), 1000, placed{"jackal", at(10, 5)}, placed{"jackal", at(10, 7)}, placed{"jackal", at(9, 2)})
	waits(t, g, 4)
	around := 0
	for _, j := range g.s.Actors[1:] {
		if j.Pos.Chebyshev(at(5, 5)) == 1 {
			around++
		}
	}
	if around != 3 {
		t.Errorf("%d of the 3 jackals stand round you after 4 turns", around)
	}
}

func TestALurkerWaitsUnseenThenSprings(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"cave lurker", at(9, 5)})
	hiddenEverywhere := func() bool {
		for _, a := range g.Actors() {
			if a.Kind == "cave lurker" {
				return false
			}
		}
		_, seen := g.Threat(at(9, 5))
		return !seen && slices.Equal(g.Describe(at(9, 5)), []string{"floor"}) && !strings.Contains(g.Explain(at(9, 5)), "lurker")
	}
	waits(t, g, 5)
	if !hiddenEverywhere() || g.s.Actors[1].Pos != at(9, 5) {
		t.Fatal("a lurker 4 tiles away shows, or moved")
	}
	from := g.LogLen()
	mustApply(t, g, Move(1, 0))
	mustApply(t, g, Move(1, 0)) // 2 tiles away
	if !strings.Contains(lastMessages(g, from), "A cave lurker springs out at you!") || hiddenEverywhere() {
		t.Errorf("the lurker did not spring:\n%s", lastMessages(g, from))
	}
	t.Run("bumping into it gives it away", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"cave lurker", at(6, 5)})
		g.s.Actors[1].Hidden = true
		from := g.LogLen()
		mustApply(t, g, Move(1, 0))
		if g.Player().Pos != at(5, 5) || !strings.Contains(lastMessages(g, from), "You stumble into a hidden cave lurker!") {
			t.Errorf("walking into a hidden lurker: at %v\n%s", g.Player().Pos, lastMessages(g, from))
		}
	})
}

func TestABreederSplitsUpToItsCap(t *testing.T) {
	g := lit(t, at(5, 5), 100000, placed{"green ooze", at(8, 5)})
	g.s.Actors[1].AI = AIBreeder
	from := g.LogLen()
	count := func() int {
		n := 0
		for _, a := range g.s.Actors {
			if a.Kind == "green ooze" {
				n++
			}
		}
		return n
	}
	waits(t, g, 40)
	if count() < 2 || !strings.Contains(lastMessages(g, from), "The green ooze splits in two!") {
		t.Fatalf("after 40 turns in sight there are %d oozes", count())
	}
	waits(t, g, 400)
	if n := count(); n != BreedCap {
		t.Errorf("after 440 turns there are %d oozes, want the cap %d", n, BreedCap)
	}
}

func TestAThiefStealsRunsAndDropsItsLootWhenKilled(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"cave monkey", at(6, 5)})
	give(g, HealthPotion, Dagger)
	mustApply(t, g, Use(1, world.Pos{})) // wear the dagger: it cannot be stolen
	for range 30 {
		if len(g.s.Inventory) < 2 {
			break
		}
		mustApply(t, g, Wait())
	}
	m := &g.s.Actors[1]
	if len(g.s.Inventory) != 1 || g.s.Inventory[0].Kind != Dagger || len(m.Loot) != 1 || !m.Fleeing {
		t.Fatalf("pack %+v, monkey loot %+v", g.s.Inventory, m.Loot)
	}
	if !strings.Contains(lastMessages(g, 0), "The cave monkey steals your health potion!") {
		t.Error("the theft is not told")
	}
	g.hurt(m, 100, "a test", "", true)
	if !slices.ContainsFunc(g.s.Items, func(it Item) bool { return it.Kind == HealthPotion && it.Pos == m.Pos }) {
		t.Errorf("the dead monkey dropped nothing: %+v", g.s.Items)
	}
	t.Run("out of sight long enough it gets away", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"cave monkey", at(30, 5)})
		for y := 1; y < 12; y++ {
			g.s.Map.Set(at(20, y), world.Wall)
		}
		g.s.Actors[1].Loot, g.s.Actors[1].Fleeing = []Item{{Kind: FireballScroll}}, true
		g.updateFOV()
		from := g.LogLen()
		waits(t, g, ThiefEscapeTurns)
		if len(g.s.Actors) != 1 || !strings.Contains(lastMessages(g, from), "The cave monkey has got away with your "+g.KindName(FireballScroll, 1)+".") {
			t.Errorf("actors %d\n%s", len(g.s.Actors), lastMessages(g, from))
		}
	})
}

func TestASleeperSleepsUntilNoiseOrABlow(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"ogre", at(30, 5)})
	for y := 1; y < 12; y++ {
		g.s.Map.Set(at(20, y), world.Wall)
	}
	g.updateFOV()
	waits(t, g, 20)
	if !g.s.Actors[1].Asleep || g.s.Actors[1].Pos != at(30, 5) {
		t.Fatal("an ogre out of sight woke or moved")
	}
	t.Run("in your sight it wakes by chance, and never strikes in its sleep", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"ogre", at(6, 5)})
		for range 20 {
			asleep, from := g.s.Actors[1].Asleep, g.LogLen()
			mustApply(t, g, Wait())
			if asleep && strings.Contains(lastMessages(g, from), "The ogre attacks") {
				t.Fatal("a sleeping ogre attacked")
			}
		}
		if g.s.Actors[1].Asleep || !strings.Contains(lastMessages(g, 0), "The ogre wakes up!") {
			t.Error("20 turns next to you and the ogre still sleeps")
		}
	})
	t.Run("it looks asleep and a blow always lands and wakes it", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"ogre", at(6, 5)})
		if got := g.Describe(at(6, 5)); len(got) == 0 || !strings.Contains(got[0], "asleep") {
			t.Errorf("look mode: %q", got)
		}
		if th, _ := g.Threat(at(6, 5)); th.Yours.Chance != 100 {
			t.Errorf("your chance against a sleeper is %d%%", th.Yours.Chance)
		}
		hp := g.s.Actors[1].HP
		mustApply(t, g, Move(1, 0))
		if g.s.Actors[1].HP >= hp || g.s.Actors[1].Asleep {
			t.Errorf("the blow at the sleeping ogre: HP %d→%d, asleep %v", hp, g.s.Actors[1].HP, g.s.Actors[1].Asleep)
		}
	})
	t.Run("a fight within earshot wakes it", func(t *testing.T) {
		g := lit(t, at(5, 5), 1000, placed{"ogre", at(5, 8)}, placed{"rat", at(6, 5)})
		g.s.Actors[1].Vision = 1 // it cannot see you: only the noise wakes it
		mustApply(t, g, Move(1, 0))
		if g.s.Actors[1].Asleep {
			t.Error("a blow struck 3 tiles away did not wake the ogre")
		}
	})
}

func TestFastMonstersActTwiceAndSlowOnesEveryOtherTurn(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"giant centipede", at(11, 5)}, placed{"ghoul", at(12, 8)})
	c0, g0 := g.s.Actors[1].Pos.Chebyshev(at(5, 5)), g.s.Actors[2].Pos.Chebyshev(at(5, 5))
	waits(t, g, 2)
	if d := c0 - g.s.Actors[1].Pos.Chebyshev(at(5, 5)); d != 4 {
		t.Errorf("the fast centipede came %d tiles nearer in 2 turns, want 4", d)
	}
	waits(t, g, 2)
	if d := g0 - g.s.Actors[2].Pos.Chebyshev(at(5, 5)); d != 2 {
		t.Errorf("the slow ghoul came %d tiles nearer in 4 turns, want 2", d)
	}
}

func TestBehaviourStateSurvivesSaveAndOldSavesGetTheirKindsBehaviour(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"cave lurker", at(30, 5)}, placed{"ogre", at(30, 7)}, placed{"cave monkey", at(30, 9)}, placed{"goblin", at(31, 9)})
	g.s.Actors[3].Loot, g.s.Actors[3].Fleeing, g.s.Actors[3].Unseen = []Item{{Kind: HealthPotion}}, true, 3
	g.s.Actors[4].AI = AIHostile // as a save from before behaviours holds it
	blob, err := g.Encode()
	if err != nil {
		t.Fatal(err)
	}
	h, err := Decode(blob, testData)
	if err != nil {
		t.Fatal(err)
	}
	a := h.s.Actors
	if !a[1].Hidden || !a[2].Asleep || !a[3].Fleeing || a[3].Unseen != 3 || len(a[3].Loot) != 1 || a[3].Loot[0].Kind != HealthPotion {
		t.Errorf("after save and load: %+v", a[1:4])
	}
	if a[4].AI != AICoward {
		t.Errorf("a goblin saved as hostile loads as %d, want the coward of its kind", a[4].AI)
	}
}

func TestEveryBehaviourIsSpawnedSomewhereAndSaysWhatItDoes(t *testing.T) {
	data := content.Default()
	for _, ai := range content.AIs {
		t.Run(string(ai)+" monsters spawn and are explained", func(t *testing.T) {
			found := false
			for _, m := range data.Monsters {
				if m.AI != ai {
					continue
				}
				for _, s := range data.MonsterSpawns {
					found = found || s.ID == m.ID
				}
				if Behaviour(m) == "" {
					t.Errorf("%s has no words", m.ID)
				}
			}
			if !found {
				t.Errorf("no monster that spawns is %s", ai)
			}
		})
	}
	if len(data.Monsters) < 20 {
		t.Errorf("%d monster kinds, want at least 20", len(data.Monsters))
	}
}

// The tester's bug: the gelatinous cube "dissolves what it touches", and
// nothing was ever dissolved. Its description now says only what it does:
// it glows, blocks the way and hits hard (its light and power are data).
func TestTheGelatinousCubeDescriptionPromisesNoRuleItLacks(t *testing.T) {
	k, ok := testData.Monster("cube")
	if !ok {
		t.Fatal("no cube")
	}
	if strings.Contains(k.Description, "dissolv") || k.Light == nil || !strings.Contains(k.Description, "glow") {
		t.Errorf("the cube's description %q", k.Description)
	}
}

// The tester's bug: a monster standing still till the player came near
// read in look mode as one that "walks up to you". Look mode says what it
// is doing now, from its state: asleep, unaware of you (it does not see
// you yet), hunting you.
func TestLookModeSaysWhetherAMonsterIsAsleepUnawareOrHunting(t *testing.T) {
	g := arena("orc")
	orc := &g.s.Actors[1]
	orc.Pos, orc.Vision = world.Pos{X: 8, Y: 2}, 2
	g.updateFOV()
	if d := strings.Join(g.Describe(orc.Pos), ", "); !strings.Contains(d, "unaware of you") {
		t.Errorf("an orc that does not see the player: %q", d)
	}
	if e := g.Explain(orc.Pos); !strings.Contains(e, "It has not noticed you.") || strings.Contains(e, "It walks up to you") {
		t.Errorf("explained: %q", e)
	}
	// The breaker's case: an arrival (wander.go) walks toward the player
	// before it sees them; in view but beyond its own sight it is hunting
	// the player, not unaware of them.
	orc.Hunting = true
	if d := strings.Join(g.Describe(orc.Pos), ", "); !strings.Contains(d, "hunting you") {
		t.Errorf("an arrival hunting the player unseen: %q", d)
	}
	if e := g.Explain(orc.Pos); !strings.Contains(e, "It is hunting you.") || strings.Contains(e, "not noticed") {
		t.Errorf("explained: %q", e)
	}
	orc.Hunting = false
	orc.Vision = 8
	if d := strings.Join(g.Describe(orc.Pos), ", "); !strings.Contains(d, "hunting you") {
		t.Errorf("an orc that sees the player: %q", d)
	}
	if e := g.Explain(orc.Pos); !strings.Contains(e, "It is hunting you.") {
		t.Errorf("explained: %q", e)
	}
	orc.Asleep = true
	if d := strings.Join(g.Describe(orc.Pos), ", "); !strings.Contains(d, "asleep") || strings.Contains(d, "hunting") {
		t.Errorf("a sleeping orc: %q", d)
	}
	if e := g.Explain(orc.Pos); !strings.Contains(e, "It is asleep.") {
		t.Errorf("explained: %q", e)
	}
}

// A thief names what it takes as the player knows it: an unknown potion by
// its appearance, never by its true kind (found reading ai_thief.go).
func TestAThiefNamesWhatItStealsAsThePlayerKnowsIt(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"cave monkey", at(6, 5)})
	giveUnknown(g, PoisonPotion)
	name := g.KindName(PoisonPotion, 1)
	for range 30 {
		if len(g.s.Inventory) == 0 {
			break
		}
		mustApply(t, g, Wait())
	}
	log := lastMessages(g, 0)
	if strings.Contains(log, "poison") || !strings.Contains(log, "The cave monkey steals your "+name+"!") {
		t.Errorf("the theft of an unknown potion is told as:\n%s", log)
	}
	m := &g.s.Actors[1]
	from := g.LogLen()
	g.hurt(m, 100, "a test", "", true)
	if log := lastMessages(g, from); strings.Contains(log, "poison") || !strings.Contains(log, "drops your "+name+".") {
		t.Errorf("the dead thief's loot is told as:\n%s", log)
	}
}

// TestAShotSaysWhereItCameFrom: the tester took three or four arrows and
// bolts from monsters they could not find on the screen, with no way to
// tell where from. A shot says the compass point it
// came from, hit or miss.
func TestAShotSaysWhereItCameFrom(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"kobold archer", at(10, 4)})
	from := g.LogLen()
	waits(t, g, 30)
	log := lastMessages(g, from)
	for _, want := range []string{"The kobold archer shoots an arrow at you from the east for ", "The kobold archer shoots an arrow at you from the east but misses."} {
		if !strings.Contains(log, want) {
			t.Errorf("no %q in:\n%s", want, log)
		}
	}
}

// TestAPoisoningSpitThatDoesNoDamageDoesNotSayNoDamage: "The cobra spits
// venom at you but does no damage." and then "You are poisoned!" (the
// tester's). A blow that poisons says only that it poisons.
func TestAPoisoningSpitThatDoesNoDamageDoesNotSayNoDamage(t *testing.T) {
	g := lit(t, at(5, 5), 5000, placed{"cobra", at(8, 5)})
	from := g.LogLen()
	waits(t, g, 400)
	log := lastMessages(g, from)
	if strings.Contains(log, "venom at you but does no damage.") {
		t.Errorf("a spit says it did no damage:\n%.600s", log[strings.Index(log, "venom at you but does no damage.")-30:])
	}
	if !strings.Contains(log, "The cobra spits venom at you from the east.\nYou are poisoned!") {
		t.Errorf("no spit that only poisons in 400 turns")
	}
}

// Testers struck an unaware bandit with a wand and a cave wolf with a
// dart from beyond their sight; each stood "wounded, unaware of you" and
// never moved. A monster the player hurts knows where they are: it hunts
// them, walking up as an arrival does.
func TestAMonsterHurtFromAfarHuntsThePlayer(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"bandit", at(13, 5)}) // in view, beyond its vision of 6
	g.s.Actors[1].HP, g.s.Actors[1].MaxHP = 100, 100         // no dart kills it
	give(g, Dart)
	if s := g.stance(&g.s.Actors[1]); s != "unaware of you" {
		t.Fatalf("before the dart the bandit is %q", s)
	}
	for g.s.Actors[1].HP == g.s.Actors[1].MaxHP { // a dart can miss: throw until one hits
		if len(g.Inventory()) == 0 {
			give(g, Dart)
		}
		mustApply(t, g, Throw(0, at(13, 5)))
	}
	if s := strings.Join(g.Describe(g.s.Actors[1].Pos), ", "); !strings.Contains(s, "hunting you") {
		t.Errorf("the struck bandit reads %q, want it hunting you", s)
	}
	before := g.s.Actors[1].Pos.Chebyshev(at(5, 5))
	waits(t, g, 3)
	if d := g.s.Actors[1].Pos.Chebyshev(at(5, 5)); d >= before {
		t.Errorf("the struck bandit stayed %d tiles away (was %d), want it walking up", d, before)
	}
}

// A tester's lone cave wolf hung back two or three tiles off for ever, its
// kin elsewhere on the level, blocking explore and travel: a pack member
// waits at most PackPatience turns in sight, then closes in alone.
func TestALonePackMemberLosesPatienceAndClosesIn(t *testing.T) {
	g := lit(t, at(5, 5), 1000, placed{"jackal", at(10, 5)}, placed{"jackal", at(50, 30)}, placed{"jackal", at(53, 30)})
	for x := 50; x < 55; x++ { // the other two, in a closed room of their own
		g.s.Map.Set(at(x, 30), world.Floor)
	}
	hp := g.Player().HP
	waits(t, g, PackPatience+4)
	if d := g.s.Actors[1].Pos.Chebyshev(at(5, 5)); d > 1 || g.Player().HP == hp {
		t.Errorf("after %d turns the lone jackal is %d tiles away and has bitten for %d, want it next to you, biting",
			PackPatience+4, d, hp-g.Player().HP)
	}
}
