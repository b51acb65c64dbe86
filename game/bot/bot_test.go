package bot

import (
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
	"github.com/grotto-game/grotto/internal/race"
)

// TestEveryPolicyPlaysWholeGamesWithoutBreakingAnInvariant is the CI check
// of the bots: a few seeds per policy, failing only on a crash or a broken
// invariant, never on balance numbers.
func TestEveryPolicyPlaysWholeGamesWithoutBreakingAnInvariant(t *testing.T) {
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	seeds := 20
	if testing.Short() || race.Enabled {
		// Under -race, 5 seeds check that the policies share the data
		// tables without a race; all 20 run in the plain pass of the
		// README's command (go test ./game/...), 15 times faster.
		seeds = 5
	}
	for _, p := range Policies() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			for s := 1; s <= seeds; s++ {
				o := Play(uint64(s), data, p, Options{Replay: s <= 3})
				for _, v := range o.Violations {
					t.Errorf("%s: %s", p.Name, v)
				}
				for k := range o.Used {
					if !contains(p.Uses, k) {
						t.Errorf("%s seed %d: used a %s, which this policy never uses", p.Name, s, k)
					}
				}
				if !o.Won && !o.Died && !o.Capped {
					t.Errorf("%s seed %d: the game stopped neither won, dead nor capped", p.Name, s)
				}
				if o.Refused > 0 {
					t.Logf("%s seed %d: %d commands refused (a bot mistake, not a rule's)", p.Name, s, o.Refused)
				}
			}
		})
	}
}

// TestTheViewShowsOnlyWhatThePlayerSees plays a careful game and checks at
// every turn that the bot's view holds no tile the player has not explored
// and no monster or item out of sight (items it remembers lie on tiles it
// has seen).
func TestTheViewShowsOnlyWhatThePlayerSees(t *testing.T) {
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	g := game.New(3, data)
	v := NewView(g)
	p, _ := PolicyByName("careful")
	w, h := g.Size()
	hidden := 0
	for turn := 0; turn < 1500 && !g.Over(); turn++ {
		for y := range h {
			for x := range w {
				q := world.Pos{X: x, Y: y}
				if known := v.Tile(q) != Unknown; known != g.Explored(q) {
					t.Fatalf("turn %d: tile %v known to the bot %v, explored %v", g.Turn(), q, known, g.Explored(q))
				}
			}
		}
		for _, m := range v.Monsters() {
			if !g.Visible(m.Pos) {
				t.Fatalf("turn %d: the bot sees a %s out of sight at %v", g.Turn(), m.Name, m.Pos)
			}
		}
		for _, it := range v.Items() {
			if !g.Explored(it.Pos) {
				t.Fatalf("turn %d: the bot knows of a %s on an unexplored tile %v", g.Turn(), it.Kind, it.Pos)
			}
		}
		for _, a := range g.Actors()[1:] {
			if a.Alive() && !g.Visible(a.Pos) {
				hidden++
			}
		}
		if _, err := g.Apply(p.Decide(v)); err != nil {
			g.Apply(game.Wait())
		}
		v.Refresh()
	}
	if hidden == 0 {
		t.Fatal("no monster was ever out of sight: the test checked nothing")
	}
}

// TestAJournalMissingACommandDoesNotReplayToTheSameGame shows the replay
// check can fail.
func TestAJournalMissingACommandDoesNotReplayToTheSameGame(t *testing.T) {
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := PolicyByName("careful")
	o := Play(7, data, p, Options{TurnCap: 200})
	if len(o.Violations) > 0 || len(o.Journal) < 100 {
		t.Fatalf("setup: %v, %d commands", o.Violations, len(o.Journal))
	}
	g := game.New(7, data)
	if err := g.Replay(o.Journal); err != nil {
		t.Fatal(err)
	}
	if err := CheckReplay(g, 7, data, o.Journal); err != nil {
		t.Fatalf("the whole journal: %v", err)
	}
	if err := CheckReplay(g, 7, data, o.Journal[:len(o.Journal)-1]); err == nil {
		t.Fatal("a journal one command short replayed to the same game")
	}
}

// TestAPanicIsReportedAsABrokenInvariant: a crash in a game is a finding with
// its seed, not the end of the report.
func TestAPanicIsReportedAsABrokenInvariant(t *testing.T) {
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	boom := Policy{Name: "boom", Rules: []Rule{func(v *View) (game.Command, bool) {
		if v.Turn() == 5 {
			panic("boom")
		}
		return game.Wait(), true
	}}}
	o := Play(11, data, boom, Options{})
	if len(o.Violations) != 1 || !strings.Contains(o.Violations[0], "seed 11 turn 5: panic: boom") {
		t.Fatalf("violations %q", o.Violations)
	}
}

// TestTheReportNamesWhatKilled reads the monster out of the game's cause.
func TestTheReportNamesWhatKilled(t *testing.T) {
	for in, want := range map[string]string{
		"killed by an orc on depth 2":            "orc",
		"killed by a large spider on depth 3":    "large spider",
		"killed by poison on depth 4":            "poison",
		"killed by a fireball on depth 5":        "a fireball",
		"killed by a gelatinous cube on depth 6": "gelatinous cube",
	} {
		if got := causeOf(in); got != want {
			t.Errorf("causeOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTheReportCountsWinsDeathsAndItems checks Summarize on made-up outcomes.
func TestTheReportCountsWinsDeathsAndItems(t *testing.T) {
	outs := []Outcome{
		{Won: true, Depth: 6, Score: 3000, Turns: 600, Used: map[game.ItemKind]int{game.HealthPotion: 4}, Left: map[game.ItemKind]int{game.FireballScroll: 2}},
		{Died: true, Depth: 3, Cause: "orc", Score: 500, Turns: 300},
		{Died: true, Depth: 3, Cause: "orc", Score: 700, Turns: 400},
		{Capped: true, Depth: 2, Score: 100, Turns: 20000},
	}
	s := Summarize("x", "", outs)
	if s.Wins != 1 || s.WinRate != 0.25 || s.Deaths != 2 || s.Capped != 1 || s.DeathsByDepth[3] != 2 {
		t.Errorf("wins %d rate %v deaths %d capped %d by depth %v", s.Wins, s.WinRate, s.Deaths, s.Capped, s.DeathsByDepth)
	}
	if len(s.DeathsByCause) != 1 || s.DeathsByCause[0] != (Count{"orc", 2}) {
		t.Errorf("causes %v", s.DeathsByCause)
	}
	if s.DepthMedian != 3 || s.ScoreMedian != 600 || s.PotionsUsed != 1 || s.ScrollsLeft != 0.5 {
		t.Errorf("depth median %v score median %v potions used %v scrolls left %v", s.DepthMedian, s.ScoreMedian, s.PotionsUsed, s.ScrollsLeft)
	}
	if md := Markdown([]Summary{s}); !strings.Contains(md, "| x | 4 | 25.0% | 1 |") || !strings.Contains(md, "orc 2 (100%)") {
		t.Errorf("markdown:\n%s", md)
	}
}

// TestEveryItemHasABotRule: the careful bot "uses every item", so a new item
// kind in the game needs its entry in ItemUses (when and how a sensible
// player uses it), or the balance report would measure a bot that ignores it.
func TestEveryItemHasABotRule(t *testing.T) {
	for _, k := range game.ItemKinds() {
		found := false
		for _, u := range ItemUses {
			found = found || u.Kind == k
		}
		if !found {
			t.Errorf("no ItemUses entry for %q (game/bot/items.go)", k)
		}
	}
}

// BenchmarkPlay times whole games, one policy per sub-benchmark, over seeds
// 1, 2, 3… (ns/op is the time of one game).
func BenchmarkPlay(b *testing.B) {
	data, err := game.LoadData()
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range Policies() {
		b.Run(p.Name, func(b *testing.B) {
			turns := 0
			for i := range b.N {
				turns += Play(uint64(i+1), data, p, Options{}).Turns
			}
			b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
		})
	}
}
