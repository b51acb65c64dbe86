package bot

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTheJaccardDistanceOfTwoSeedsSets(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b []string
		want float64
	}{
		{"the same set is at distance 0", []string{"dagger", "sword"}, []string{"dagger", "sword"}, 0},
		{"two empty sets are the same", nil, nil, 0},
		{"disjoint sets are at distance 1", []string{"dagger"}, []string{"sword"}, 1},
		{"an empty set is at distance 1 from any other", nil, []string{"sword"}, 1},
		{"one shared kind of three is 2/3 apart", []string{"a", "b"}, []string{"b", "c"}, 2.0 / 3},
		{"a subset of half is 1/2 apart", []string{"a", "b"}, []string{"a", "b", "c", "d"}, 0.5},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := JaccardDistance(c.a, c.b); !near(got, c.want) {
				t.Errorf("JaccardDistance(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
			}
			if got := JaccardDistance(c.b, c.a); !near(got, c.want) {
				t.Errorf("not symmetric: JaccardDistance(%v, %v) = %v", c.b, c.a, got)
			}
		})
	}
}

func TestVarietyCountsDistinctSetsAndTheMeanDistanceOverPairs(t *testing.T) {
	v := VarietyOf([][]string{{"a", "b"}, {"a", "b"}, {"b", "c"}})
	// pairs: (1,2) 0, (1,3) 2/3, (2,3) 2/3
	if !v.Known || v.Seeds != 3 || v.Distinct != 2 || !near(v.Jaccard, 4.0/9) {
		t.Errorf("variety %+v, want 3 seeds, 2 distinct, mean distance 4/9", v)
	}
	if v.MinSize != 2 || v.MaxSize != 2 || !near(v.MeanSize, 2) {
		t.Errorf("sizes %d–%d mean %v", v.MinSize, v.MaxSize, v.MeanSize)
	}
	want := []Count{{"b", 1}, {"a", 2.0 / 3}, {"c", 1.0 / 3}}
	if len(v.Share) != 3 || v.Share[0] != want[0] || !near(v.Share[1].N, want[1].N) || v.Share[2].Name != "c" {
		t.Errorf("shares %v, want %v", v.Share, want)
	}
	if same := VarietyOf([][]string{{"a"}, {"a"}}); same.Distinct != 1 || same.Jaccard != 0 {
		t.Errorf("two seeds with the same set: %+v", same)
	}
}

func TestTheSixtyPercentRule(t *testing.T) {
	for _, c := range []struct {
		name         string
		wins, losses float64
		wantDecisive bool
	}{
		{"in every win and no loss: decisive", 1, 0, true},
		{"in 61% of wins and 40% of losses: decisive", 0.61, 0.40, true},
		{"in exactly 60% of wins: not more than 60%", 0.60, 0, false},
		{"in every win and 70% of losses: common, not decisive", 1, 0.70, false},
		{"in 75% of wins and 50% of losses: exactly 1.5 times, not more", 0.75, 0.5, false},
		{"in half the wins and no loss: not in most wins", 0.5, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Decisive(c.wins, c.losses); got != c.wantDecisive {
				t.Errorf("Decisive(%v, %v) = %v", c.wins, c.losses, got)
			}
		})
	}
}

// testTables is a made-up bestiary: two hostile monsters, a thief (a
// behaviour the report does not know by name) and a bat.
func testTables() *content.Tables {
	return &content.Tables{Monsters: []content.Monster{
		{ID: "orc", Name: "orc", AI: "hostile"},
		{ID: "magpie", Name: "magpie", AI: "thief"},
		{ID: "troll", Name: "troll", AI: "hostile"},
		{ID: "bat", Name: "bat", AI: "herbivore"},
	}}
}

func TestMeasureGroupsDeathsAndMeetingsByTheDataBehaviours(t *testing.T) {
	outs := []Outcome{
		{Seed: 1, Won: true, Depth: mapgen.LastDepth, Turns: 3000, Measures: Measures{Keys: 400,
			Met:      map[string]Meetings{"orc": {Met: 5, Killed: 5, Beaten: 5}, "magpie": {Met: 2, Killed: 1, Beaten: 2}},
			Had:      map[game.ItemKind]bool{game.ChainMail: true, game.HealthPotion: true},
			LevelUps: map[game.Stat]int{game.StatHP: 2, game.StatPower: 1}}},
		{Seed: 2, Died: true, Cause: "orc", Depth: 3, Turns: 1000, Measures: Measures{Keys: 200,
			Met: map[string]Meetings{"orc": {Met: 3, Killed: 2, Beaten: 2, Killer: 1}, "bat": {Met: 1, Beaten: 0}},
			Had: map[game.ItemKind]bool{game.HealthPotion: true}, LevelUps: map[game.Stat]int{game.StatHP: 1}}},
		{Seed: 3, Died: true, Cause: "magpie", Depth: mapgen.LastDepth, Turns: 2000, Measures: Measures{Keys: 300,
			Met: map[string]Meetings{"magpie": {Met: 1, Killer: 1}}, Had: map[game.ItemKind]bool{game.HealthPotion: true}}},
		{Seed: 4, Died: true, Cause: "orc", Depth: 4, Turns: 1500, Measures: Measures{Keys: 250}},
		{Seed: 5, Died: true, Cause: "starved to death", Depth: 4, Turns: 5000, Measures: Measures{Keys: 100}},
		{Seed: 6, Died: true, Cause: "poison", Depth: 4, Turns: 2000, Measures: Measures{Keys: 250}},
		{Seed: 7, Died: true, Cause: "poison", Depth: 4, Turns: 2000, Measures: Measures{Keys: 250}},
	}
	m := Measure(testTables(), "careful", outs)
	t.Run("the deadliest monster and its share of all deaths; poison is no monster", func(t *testing.T) {
		if m.Deaths != 6 || m.TopCause != "orc" || m.TopCauseN != 2 || !near(m.TopCauseShare, 1.0/3) || m.Starved != 1 {
			t.Errorf("deaths %d, top %q %d (%v), starved %d", m.Deaths, m.TopCause, m.TopCauseN, m.TopCauseShare, m.Starved)
		}
	})
	t.Run("one row per behaviour of the data, in its order, then deaths of no monster", func(t *testing.T) {
		var ais []string
		for _, b := range m.Behaviours {
			ais = append(ais, b.AI)
		}
		if want := []string{"hostile", "thief", "herbivore", NotAMonster}; !slices.Equal(ais, want) {
			t.Fatalf("behaviours %v, want %v", ais, want)
		}
		h, th, bat, other := m.Behaviours[0], m.Behaviours[1], m.Behaviours[2], m.Behaviours[3]
		if !slices.Equal(h.Monsters, []string{"orc", "troll"}) || h.Met != 8 || h.Killed != 7 || h.Beaten != 7 || h.Killer != 2 || !near(h.DeathShare, 1.0/3) {
			t.Errorf("hostile %+v", h)
		}
		if th.Met != 3 || th.Beaten != 2 || th.Killer != 1 || !near(th.BeatenShare(), 2.0/3) {
			t.Errorf("thief %+v", th)
		}
		if bat.Met != 1 || bat.Killer != 0 || bat.BeatenShare() != 0 {
			t.Errorf("herbivore %+v", bat)
		}
		if other.Killer != 3 || other.DeathShare != 0.5 {
			t.Errorf("not a monster %+v", other)
		}
	})
	t.Run("medians of turns and keys, and minutes at the keys a minute", func(t *testing.T) {
		if m.TurnsMedian != 2000 || m.KeysMedian != 250 || m.MinutesMedian != 250.0/KeysPerMinute {
			t.Errorf("turns %v keys %v minutes %v", m.TurnsMedian, m.KeysMedian, m.MinutesMedian)
		}
	})
	t.Run("presence in wins, in losses and in the losses that reached the last depth", func(t *testing.T) {
		got := map[string]Presence{}
		for _, p := range m.Presence {
			got[p.What] = p
		}
		cm := got["had: "+string(game.ChainMail)]
		if cm.Wins != 1 || cm.Losses != 0 || cm.DeepLosses != 0 || !cm.Decisive || !cm.DecisiveDeep {
			t.Errorf("chain mail %+v", cm)
		}
		hp := got["had: "+string(game.HealthPotion)]
		if hp.Wins != 1 || !near(hp.Losses, 1.0/3) || hp.DeepLosses != 1 || !hp.Decisive || hp.DecisiveDeep {
			t.Errorf("health potion %+v", hp)
		}
		pw := got["level-up: "+StatName(game.StatPower)]
		if pw.Wins != 1 || pw.Losses != 0 || !pw.Decisive {
			t.Errorf("power %+v", pw)
		}
		if hpUp := got["level-up: "+StatName(game.StatHP)]; hpUp.Wins != 1 || !near(hpUp.Losses, 1.0/6) {
			t.Errorf("HP %+v", hpUp)
		}
		if _, ok := got["level-up: "+StatName(game.StatDefense)]; ok {
			t.Errorf("a row for a level-up choice no game made")
		}
	})
	t.Run("the special rooms are n/a while no game reports them", func(t *testing.T) {
		if m.Rooms.Known || !strings.Contains(MeasuredMarkdown([]Measured{m}), "| special rooms | differ from seed to seed | n/a") {
			t.Errorf("rooms %+v", m.Rooms)
		}
	})
}

func TestTheSpecialRoomsAreMeasuredWhenEveryGameReportsThem(t *testing.T) {
	outs := []Outcome{
		{Seed: 2, Measures: Measures{RoomsKnown: true, Rooms: []string{"vault on d2"}}},
		{Seed: 1, Measures: Measures{RoomsKnown: true, Rooms: []string{"den on d3", "vault on d2"}}},
	}
	m := Measure(testTables(), "careful", outs)
	if !m.Rooms.Known || m.Rooms.Distinct != 2 || !near(m.Rooms.Jaccard, 0.5) {
		t.Errorf("rooms %+v", m.Rooms)
	}
	if md := MeasuredMarkdown([]Measured{m}); !strings.Contains(md, "| den on d3 | 50% |") {
		t.Errorf("markdown:\n%s", md)
	}
}

func TestAComparisonWhosePoliciesDidNotRunSaysNA(t *testing.T) {
	md := MeasuredMarkdown([]Measured{{Policy: "careful", Games: 1}})
	for _, c := range Comparisons() {
		if !strings.Contains(md, "| "+c.What+" | "+c.Policy+" vs "+c.Against+" | n/a") {
			t.Errorf("no n/a row for %q in:\n%s", c.What, md)
		}
	}
	c := Comparisons()[0]
	md = MeasuredMarkdown([]Measured{{Policy: c.Against, Games: 2, Wins: 1, TurnsMedian: 900}, {Policy: c.Policy, Games: 2, TurnsMedian: 1000, Starved: 1}})
	if !strings.Contains(md, "| "+c.Policy+" vs "+c.Against+" | 0.0% vs 50.0% | 1000 vs 900 | 1 vs 0 |") {
		t.Errorf("no comparison row in:\n%s", md)
	}
}

// TestTheMeasuredSectionOfAFewGamesAddsUp is CI's run of the "Measured"
// section: a few whole games per policy, checked for consistency (no
// balance number is asserted).
func TestTheMeasuredSectionOfAFewGamesAddsUp(t *testing.T) {
	t.Parallel()
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	var ms []Measured
	for _, p := range Policies() {
		var outs []Outcome
		for s := uint64(1); s <= 2; s++ {
			o := Play(s, data, p, Options{})
			for _, v := range o.Violations {
				t.Errorf("%s: %s", p.Name, v)
			}
			kills := 0
			for kind, n := range o.Met {
				if _, ok := data.Monster(kind); !ok {
					t.Errorf("%s seed %d: met a %q, which is no monster of the data", p.Name, s, kind)
				}
				if n.Killed > n.Beaten || n.Beaten > n.Met || n.Killer > 1 {
					t.Errorf("%s seed %d: %s meetings %+v", p.Name, s, kind, n)
				}
				kills += n.Killed
			}
			if o.Died && monsterNamed(data, o.Cause).ID != "" && o.Met[monsterNamed(data, o.Cause).ID].Killer != 1 {
				t.Errorf("%s seed %d: killed by a %s, not counted as its kill", p.Name, s, o.Cause)
			}
			if o.Kills > 0 && kills == 0 {
				t.Errorf("%s seed %d: %d kills, no meeting killed", p.Name, s, o.Kills)
			}
			if o.Keys < 1 || o.Keys > len(o.Journal) {
				t.Errorf("%s seed %d: %d keys for %d commands", p.Name, s, o.Keys, len(o.Journal))
			}
			for k := range o.Used {
				if !o.Had[k] {
					t.Errorf("%s seed %d: used a %s it never had", p.Name, s, k)
				}
			}
			if !slices.IsSorted(o.Spawned) || !slices.IsSorted(o.Seen) || len(o.Spawned) == 0 {
				t.Errorf("%s seed %d: spawned %v seen %v", p.Name, s, o.Spawned, o.Seen)
			}
			outs = append(outs, o)
		}
		m := Measure(data, p.Name, outs)
		deaths := 0
		for _, b := range m.Behaviours {
			deaths += b.Killer
			if b.BeatenShare() < 0 || b.BeatenShare() > 1 {
				t.Errorf("%s: %s beaten %v", p.Name, b.AI, b.BeatenShare())
			}
		}
		if deaths != m.Deaths || m.TopCauseShare > 1 {
			t.Errorf("%s: %d deaths by behaviour, %d deaths; top share %v", p.Name, deaths, m.Deaths, m.TopCauseShare)
		}
		for _, pr := range m.Presence {
			for _, x := range []float64{pr.Wins, pr.Losses, pr.DeepLosses} {
				if x < 0 || x > 1 {
					t.Errorf("%s: %s share %v", p.Name, pr.What, x)
				}
			}
		}
		ms = append(ms, m)
	}
	md := MeasuredMarkdown(ms)
	for _, mon := range data.Monsters {
		if !strings.Contains(md, "| "+string(mon.AI)+" |") {
			t.Errorf("no row for the behaviour %q in:\n%s", mon.AI, md)
		}
	}
}

// TestTheRunnerRecordsTheSpecialRoomsTheGameReports plays a game with a
// rooms hook standing in for the level builders' report.
func TestTheRunnerRecordsTheSpecialRoomsTheGameReports(t *testing.T) {
	data, err := game.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	if o := Play(4, data, Policies()[0], Options{TurnCap: 50}); !o.RoomsKnown {
		t.Fatalf("the game's own report (game.SpecialRooms): rooms %v known %v", o.Rooms, o.RoomsKnown)
	}
	rooms := func(g *game.Game) ([]string, bool) {
		if g.Depth() == 1 {
			return []string{"vault", "den"}, true
		}
		return nil, true
	}
	o := Play(4, data, Policies()[0], Options{TurnCap: 50, Rooms: rooms})
	if !o.RoomsKnown || !slices.Equal(o.Rooms, []string{"den on d1", "vault on d1"}) {
		t.Fatalf("rooms %v known %v", o.Rooms, o.RoomsKnown)
	}
}
