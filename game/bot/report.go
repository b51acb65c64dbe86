package bot

// This file turns outcomes into the balance report: one Summary per policy,
// printed as Markdown tables.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/mapgen"
)

// Summary is one policy's figures over its games.
type Summary struct {
	Policy      string  `json:"policy"`
	Doc         string  `json:"doc"`
	Games       int     `json:"games"`
	Wins        int     `json:"wins"`
	WinRate     float64 `json:"win_rate"` // 0..1
	Capped      int     `json:"capped"`   // games stopped at the turn cap
	Deaths      int     `json:"deaths"`
	DepthMedian float64 `json:"depth_median"` // deepest depth reached
	DepthMean   float64 `json:"depth_mean"`
	// DeathsByDepth[d] is how many games ended in death on depth d (index 0 unused).
	DeathsByDepth [mapgen.LastDepth + 1]int `json:"deaths_by_depth"`
	// DeathsByCause counts deaths by what dealt the last blow, most first.
	DeathsByCause []Count `json:"deaths_by_cause"`
	// TurnsPerDepth[d] is the mean turns spent on depth d by the games that reached it.
	TurnsPerDepth [mapgen.LastDepth + 1]float64 `json:"turns_per_depth"`
	TurnsMean     float64                       `json:"turns_mean"`
	ScoreMean     float64                       `json:"score_mean"`
	ScoreMedian   float64                       `json:"score_median"`
	// Used and Left are the mean items per game used (or thrown) and left in
	// the pack at the end, by kind in game.ItemKinds order.
	Used          []Count `json:"used"`
	Left          []Count `json:"left"`
	PotionsUsed   float64 `json:"potions_used"` // means per game
	PotionsLeft   float64 `json:"potions_left"`
	ScrollsUsed   float64 `json:"scrolls_used"`
	ScrollsLeft   float64 `json:"scrolls_left"`
	Refused       int     `json:"refused"`     // commands the game refused, over all games
	MillisPerGame float64 `json:"ms_per_game"` // mean Outcome.ElapsedMS, 0 when not measured
	Violations    int     `json:"violations"`  // broken invariants, over all games
	FirstBroken   string  `json:"first_violation,omitempty"`
	// Measured is the "Measured" section's figures (Measure), when the caller adds them.
	Measured *Measured `json:"measured,omitempty"`
}

// Count is a name with a number (a count, or a mean per game).
type Count struct {
	Name string  `json:"name"`
	N    float64 `json:"n"`
}

// Summarize returns the figures of one policy's outcomes; doc describes the
// policy.
func Summarize(policy, doc string, outs []Outcome) Summary {
	s := Summary{Policy: policy, Doc: doc, Games: len(outs)}
	if len(outs) == 0 {
		return s
	}
	n := float64(len(outs))
	var depths, scores []float64
	causes := map[string]int{}
	var reached [mapgen.LastDepth + 1]int
	used, left := map[game.ItemKind]int{}, map[game.ItemKind]int{}
	var elapsed float64 // ms
	for _, o := range outs {
		switch {
		case o.Won:
			s.Wins++
		case o.Capped:
			s.Capped++
		case o.Died:
			s.Deaths++
			s.DeathsByDepth[o.Depth]++
			causes[o.Cause]++
		}
		depths = append(depths, float64(o.Depth))
		scores = append(scores, float64(o.Score))
		s.TurnsMean += float64(o.Turns) / n
		for d := 1; d <= o.Depth && d <= mapgen.LastDepth; d++ {
			reached[d]++
			s.TurnsPerDepth[d] += float64(o.DepthTurns[d])
		}
		for k, c := range o.Used {
			used[k] += c
		}
		for k, c := range o.Left {
			left[k] += c
		}
		s.Refused += o.Refused
		s.Violations += len(o.Violations)
		if s.FirstBroken == "" && len(o.Violations) > 0 {
			s.FirstBroken = o.Violations[0]
		}
		elapsed += o.ElapsedMS
	}
	s.WinRate = float64(s.Wins) / n
	s.DepthMedian, s.DepthMean = median(depths), mean(depths)
	s.ScoreMedian, s.ScoreMean = median(scores), mean(scores)
	for d := range reached {
		if reached[d] > 0 {
			s.TurnsPerDepth[d] /= float64(reached[d])
		}
	}
	s.DeathsByCause = byCount(causes)
	s.addItems(used, left, n)
	s.MillisPerGame = elapsed / n
	return s
}

// byCount is counts as Counts, most first, then by name.
func byCount(counts map[string]int) []Count {
	var out []Count
	for c, k := range counts {
		out = append(out, Count{c, float64(k)})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.N > b.N || a.N == b.N && a.Name < b.Name
	})
	return out
}

// addItems sets the items used and left per game, of n games, by kind and
// potions against scrolls.
func (s *Summary) addItems(used, left map[game.ItemKind]int, n float64) {
	for _, k := range game.ItemKinds() {
		u, l := float64(used[k])/n, float64(left[k])/n
		s.Used = append(s.Used, Count{string(k), u})
		s.Left = append(s.Left, Count{string(k), l})
		if k.Potion() {
			s.PotionsUsed += u
			s.PotionsLeft += l
		} else {
			s.ScrollsUsed += u
			s.ScrollsLeft += l
		}
	}
}

func mean(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Markdown returns the report as Markdown: the main table (wins, depth,
// score, turns, items), deaths by depth, deaths by cause, and items by kind.
func Markdown(ss []Summary) string {
	var b strings.Builder
	f := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	f("| policy | games | wins | capped | depth median / mean | score median / mean | turns | potions used / left | scrolls used / left | refused | ms/game |\n")
	f("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range ss {
		f("| %s | %d | %.1f%% | %d | %.1f / %.2f | %.0f / %.0f | %.0f | %.1f / %.1f | %.1f / %.1f | %d | %.0f |\n",
			s.Policy, s.Games, 100*s.WinRate, s.Capped, s.DepthMedian, s.DepthMean, s.ScoreMedian, s.ScoreMean,
			s.TurnsMean, s.PotionsUsed, s.PotionsLeft, s.ScrollsUsed, s.ScrollsLeft, s.Refused, s.MillisPerGame)
	}
	f("\nDeaths by depth (games), and mean turns spent on each depth by the games that reached it:\n\n")
	f("| policy | deaths |")
	for d := 1; d <= mapgen.LastDepth; d++ {
		f(" d%d |", d)
	}
	for d := 1; d <= mapgen.LastDepth; d++ {
		f(" turns d%d |", d)
	}
	f("\n|---|---:|%s%s\n", strings.Repeat("---:|", mapgen.LastDepth), strings.Repeat("---:|", mapgen.LastDepth))
	for _, s := range ss {
		f("| %s | %d |", s.Policy, s.Deaths)
		for d := 1; d <= mapgen.LastDepth; d++ {
			f(" %d |", s.DeathsByDepth[d])
		}
		for d := 1; d <= mapgen.LastDepth; d++ {
			f(" %.0f |", s.TurnsPerDepth[d])
		}
		f("\n")
	}
	f("\nDeaths by cause (share of the policy's deaths):\n\n| policy | causes |\n|---|---|\n")
	for _, s := range ss {
		var cs []string
		for _, c := range s.DeathsByCause {
			cs = append(cs, fmt.Sprintf("%s %.0f (%.0f%%)", c.Name, c.N, 100*c.N/float64(max(1, s.Deaths))))
		}
		f("| %s | %s |\n", s.Policy, strings.Join(cs, ", "))
	}
	f("\nItems per game, used / left in the pack at the end:\n\n| policy |")
	for _, k := range game.ItemKinds() {
		f(" %s |", k)
	}
	f("\n|---|%s\n", strings.Repeat("---:|", len(game.ItemKinds())))
	for _, s := range ss {
		f("| %s |", s.Policy)
		for i := range s.Used {
			f(" %.2f / %.2f |", s.Used[i].N, s.Left[i].N)
		}
		f("\n")
	}
	return b.String()
}
