package game

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// lastMessages returns the texts of g's log from index from on.
func lastMessages(g *Game, from int) string {
	var b strings.Builder
	for _, m := range g.Messages(from) {
		b.WriteString(m.Text + "\n")
	}
	return b.String()
}

// TestGodModeClaimsNoDamage: with god mode on, a troll's blow and your own
// fireball leave your HP alone, and no message says you lost hit points
// (it used to say "attacks you for 2 hit points").
func TestGodModeClaimsNoDamage(t *testing.T) {
	g := arena("troll")
	mustApply(t, g, CheatCommand(CheatGod, ""))
	from := g.LogLen()
	mustApply(t, g, Wait())
	give(g, FireballScroll)
	mustApply(t, g, Use(0, g.Player().Pos))
	log := lastMessages(g, from)
	if g.Player().HP != PlayerHP {
		t.Errorf("HP %d under god mode", g.Player().HP)
	}
	if strings.Contains(log, "attacks you for") || strings.Contains(log, "You are engulfed in a fiery explosion, taking") {
		t.Errorf("god mode messages claim damage:\n%s", log)
	}
	if !strings.Contains(log, "The troll attacks you but you are unharmed (god mode).") {
		t.Errorf("the troll's blow is not reported as harmless:\n%s", log)
	}
}

// TestTheCauseOfDeathSaysHow: the score table's cause names the killer,
// the depth and the blow.
func TestTheCauseOfDeathSaysHow(t *testing.T) {
	g := arena("troll")
	g.s.Actors[0].HP = 2
	g.s.Actors[1].HP = 1000
	for range 20 {
		if g.Over() {
			break
		}
		g.Apply(Wait())
	}
	k, _ := testData.Monster("troll")
	lo, hi := DamageRange(k.Power, PlayerDefense)
	var n int
	if _, err := fmt.Sscanf(g.Cause(), "killed by a troll on depth 1 (it hit you for %d)", &n); err != nil || n < lo || n > hi {
		t.Errorf("cause %q, want \"killed by a troll on depth 1 (it hit you for N)\" with N in %d..%d", g.Cause(), lo, hi)
	}
}

// TestLowHealthIsToldOncePerCrossing: the turn HP falls below a third logs
// the warning; the turns spent below it do not repeat it; healing above and
// falling again warns again.
func TestLowHealthIsToldOncePerCrossing(t *testing.T) {
	// Poison takes exactly PoisonDamage a turn (blows roll to hit and for damage).
	g := arena("rat")
	g.s.Actors[1].AI = AINone
	g.addEffect(g.player(), EffectPoison, 100)
	if PoisonDamage != 1 {
		t.Fatalf("the test needs 1 HP a turn; poison takes %d", PoisonDamage)
	}
	g.s.Actors[0].HP = 11
	count := func() (n int) { // repeats of one line are one entry with a Count
		for _, m := range g.s.Log {
			if strings.Contains(m.Text, MsgLowHealth) {
				n += m.Count
			}
		}
		return n
	}
	mustApply(t, g, Wait()) // 10 HP: 30 < 30 is false, not low yet
	if n := count(); n != 0 {
		t.Fatalf("warned at %d HP", g.Player().HP)
	}
	mustApply(t, g, Wait()) // 9 HP: low
	mustApply(t, g, Wait()) // 8 HP: still low, no repeat
	mustApply(t, g, Wait())
	if n := count(); n != 1 || !LowHealth(g.Player().HP, g.Player().MaxHP) {
		t.Fatalf("warned %d times falling to %d HP, want once", n, g.Player().HP)
	}
	g.s.Actors[0].HP = 10
	mustApply(t, g, Wait())
	if n := count(); n != 2 {
		t.Errorf("falling below a third again warned %d times in all, want 2", n)
	}
}

// TestHealthWords: look mode's words and their thresholds.
func TestHealthWords(t *testing.T) {
	for _, c := range []struct {
		hp   int
		want string
	}{{16, "unhurt"}, {15, "wounded"}, {8, "wounded"}, {7, "badly wounded"}, {4, "badly wounded"}, {3, "nearly dead"}, {1, "nearly dead"}} {
		if got := HealthWord(c.hp, 16); got != c.want {
			t.Errorf("HealthWord(%d, 16) = %q, want %q", c.hp, got, c.want)
		}
	}
}

// TestWalkingIntoDeepWaterSaysWhatItIs: deep water blocks, and says so.
func TestWalkingIntoDeepWaterSaysWhatItIs(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	g.s.Map.Set(world.Pos{X: 2, Y: 3}, world.DeepWater)
	_, err := g.Apply(Move(0, 1))
	if err == nil || err.Error() != "That is deep water; you cannot swim." {
		t.Errorf("walking into deep water: %v", err)
	}
}
