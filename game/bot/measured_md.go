package bot

// This file prints the "Measured" section as Markdown: the headline table
// of the balance targets for the careful bot, then the tables behind each
// line, the policies side by side, and the comparisons of Comparisons.

import (
	"fmt"
	"strings"

	"github.com/grotto-game/grotto/game/mapgen"
)

// Comparison is one row of the comparisons table: policy Policy against
// policy Against, which differ in one decision (What). A comparison whose
// policies did not run prints "n/a": adding a policy to Policies and its
// line in Comparisons is all a new comparison needs.
type Comparison struct {
	What    string // the decision, in a few words
	Policy  string // the policy that makes it
	Against string // the policy that does not
}

// Comparisons are the two design decisions the report measures:
// identification ("a bot that drinks unknown potions at full health does
// measurably better or worse than one that never does") and the hunger
// clock ("resting to full before every fight costs something").
func Comparisons() []Comparison {
	return []Comparison{
		{"drinks unknown potions at full health, or never", "careful", "careful-no-drink"},
		{"rests to full before every fight, or not", "rester", "careful"},
	}
}

// HeadlinePolicy is the policy whose figures the headline table gives
// (the balance targets are the careful bot's); the first one run when it did not run.
const HeadlinePolicy = "careful"

func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// MeasuredMarkdown returns the "Measured" section for ms, one per policy.
func MeasuredMarkdown(ms []Measured) string {
	if len(ms) == 0 {
		return ""
	}
	var b strings.Builder
	f := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	h := ms[0]
	for _, m := range ms {
		if m.Policy == HeadlinePolicy {
			h = m
		}
	}
	for _, section := range []func(printf, Measured, []Measured){
		headlineMD, behavioursMD, deathsMD, presenceMD, itemKindsMD, policiesMD, comparisonsMD,
	} {
		section(f, h, ms)
	}
	return b.String()
}

// printf writes one piece of the report.
type printf func(format string, a ...any)

// headlineMD is the table of the balance measures for h, the headline
// policy's figures.
func headlineMD(f printf, h Measured, _ []Measured) {
	f("The targets' measures (%s bot, %d games; see \"How each number is measured\"):\n\n", h.Policy, h.Games)
	f("| measure | target | %s |\n|---|---|---|\n", h.Policy)
	f("| wins | 20–40%% | %.1f%% (%d of %d) |\n", 100*ratio(h.Wins, h.Games), h.Wins, h.Games)
	if h.TopCauseN > 0 {
		f("| most deaths by one monster | at most 25%% | %s, %.1f%% (%d of %d deaths) |\n", h.TopCause, 100*h.TopCauseShare, h.TopCauseN, h.Deaths)
	} else {
		f("| most deaths by one monster | at most 25%% | no monster killed (%d deaths) |\n", h.Deaths)
	}
	var dec, deep []string
	for _, p := range h.Presence {
		if p.Decisive {
			dec = append(dec, p.What)
		}
		if p.DecisiveDeep {
			deep = append(deep, p.What)
		}
	}
	if g, ok := LargestGap(h.Presence); ok {
		f("| item or level-up choice most present in wins over losses | none in more than %s of wins and %.1f× its share of losses | %s: %s of wins, %s of losses (%s of the losses on d%d) |\n",
			pct(DecisiveShare), DecisiveRatio, g.What, pct(g.Wins), pct(g.Losses), pct(g.DeepLosses), mapgen.LastDepth)
	}
	f("| … breaking that rule, against all losses | none | %s |\n", orNone(dec))
	f("| … against the losses that reached d%d | none | %s |\n", mapgen.LastDepth, orNone(deep))
	var noDeath, notBeaten []string
	for _, bh := range h.Behaviours {
		if bh.AI == NotAMonster {
			continue
		}
		if bh.Killer == 0 {
			noDeath = append(noDeath, bh.AI)
		}
		if 2*bh.Beaten <= bh.Met { // "beaten in most": more than half
			notBeaten = append(notBeaten, fmt.Sprintf("%s (%d of %d)", bh.AI, bh.Beaten, bh.Met))
		}
	}
	f("| behaviours that caused no death | none | %s |\n", orNone(noDeath))
	f("| behaviours not beaten in most meetings | none | %s |\n", orNone(notBeaten))
	f("| item kinds spawned on d1–%d, %d seeds | differ from seed to seed | %s |\n", EarlyDepths, h.Items.Seeds, varietyLine(h.Items))
	f("| item kinds seen on d1–%d | differ from seed to seed | %s |\n", EarlyDepths, varietyLine(h.SeenItems))
	f("| special rooms | differ from seed to seed | %s |\n", varietyLine(h.Rooms))
	f("| median game | — | %.0f turns, %.0f keys: about %.0f minutes at %d keys a minute |\n", h.TurnsMedian, h.KeysMedian, h.MinutesMedian, KeysPerMinute)
}

// behavioursMD is h's table of monster behaviours: met, killed, beaten,
// deaths.
func behavioursMD(f printf, h Measured, _ []Measured) {
	f("\nMonster behaviours (%s bot): a meeting is a monster seen alive; beaten = killed, or the player left its level alive.\n\n", h.Policy)
	f("| behaviour | monsters | met | killed | beaten | deaths | share of deaths |\n|---|---|---:|---:|---:|---:|---:|\n")
	for _, bh := range h.Behaviours {
		if bh.AI == NotAMonster {
			f("| %s | — | — | — | — | %d | %s |\n", bh.AI, bh.Killer, pct(bh.DeathShare))
			continue
		}
		f("| %s | %s | %d | %s | %s | %d | %s |\n", bh.AI, strings.Join(bh.Monsters, ", "), bh.Met,
			pct(ratio(bh.Killed, bh.Met)), pct(bh.BeatenShare()), bh.Killer, pct(bh.DeathShare))
	}
}

// deathsMD is the deaths by behaviour, a row per policy of ms.
func deathsMD(f printf, h Measured, ms []Measured) {
	f("\nDeaths by behaviour (share of the policy's deaths):\n\n| policy | deaths |")
	for _, bh := range h.Behaviours {
		f(" %s |", bh.AI)
	}
	f("\n|---|---:|%s\n", strings.Repeat("---:|", len(h.Behaviours)))
	for _, m := range ms {
		f("| %s | %d |", m.Policy, m.Deaths)
		for _, hb := range h.Behaviours {
			n, share := 0, 0.0
			for _, bh := range m.Behaviours {
				if bh.AI == hb.AI {
					n, share = bh.Killer, bh.DeathShare
				}
			}
			f(" %d (%s) |", n, pct(share))
		}
		f("\n")
	}
}

// presenceMD is h's items and level-up choices in wins and losses.
func presenceMD(f printf, h Measured, _ []Measured) {
	f("\nItems and level-up choices in wins and losses (%s bot; share of games that had it; ! marks a thing breaking the rule):\n\n", h.Policy)
	f("| what | wins | losses | losses on d%d |\n|---|---:|---:|---:|\n", mapgen.LastDepth)
	for _, p := range h.Presence {
		if p.Wins == 0 && p.Losses == 0 {
			continue
		}
		mark := func(x float64, bad bool) string {
			if bad {
				return pct(x) + " !"
			}
			return pct(x)
		}
		f("| %s | %s | %s | %s |\n", p.What, pct(p.Wins), mark(p.Losses, p.Decisive), mark(p.DeepLosses, p.DecisiveDeep))
	}
}

// itemKindsMD is the item kinds spawned and seen on the early depths, and
// the special rooms, for h.
func itemKindsMD(f printf, h Measured, _ []Measured) {
	f("\nItem kinds on d1–%d: the share of the %d lowest seeds (%s bot) where each was spawned, and seen:\n\n| item | spawned | seen |\n|---|---:|---:|\n", EarlyDepths, h.Items.Seeds, h.Policy)
	seen := map[string]float64{}
	for _, c := range h.SeenItems.Share {
		seen[c.Name] = c.N
	}
	for _, c := range h.Items.Share {
		f("| %s | %s | %s |\n", c.Name, pct(c.N), pct(seen[c.Name]))
	}
	if h.Rooms.Known {
		f("\nSpecial rooms: the share of seeds with each (kind on depth):\n\n| room | seeds |\n|---|---:|\n")
		for _, c := range h.Rooms.Share {
			f("| %s | %s |\n", c.Name, pct(c.N))
		}
	}
}

// policiesMD is the policies of ms side by side.
func policiesMD(f printf, _ Measured, ms []Measured) {
	f("\nPolicies side by side (minutes at %d keys a minute):\n\n", KeysPerMinute)
	f("| policy | games | wins | median turns | median keys | minutes | deaths | starved | most deaths by one monster |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, m := range ms {
		top := "—"
		if m.TopCauseN > 0 {
			top = fmt.Sprintf("%s %s", m.TopCause, pct(m.TopCauseShare))
		}
		f("| %s | %d | %.1f%% | %.0f | %.0f | %.0f | %d | %d | %s |\n", m.Policy, m.Games, 100*ratio(m.Wins, m.Games),
			m.TurnsMedian, m.KeysMedian, m.MinutesMedian, m.Deaths, m.Starved, top)
	}
}

// comparisonsMD is the decisions the report compares, policy against
// policy, from ms.
func comparisonsMD(f printf, _ Measured, ms []Measured) {
	byName := map[string]Measured{}
	for _, m := range ms {
		byName[m.Policy] = m
	}
	f("\nComparisons (identification and resting):\n\n| decision | policies | wins | median turns | starved |\n|---|---|---|---|---|\n")
	for _, c := range Comparisons() {
		a, okA := byName[c.Policy]
		o, okO := byName[c.Against]
		if !okA || !okO {
			f("| %s | %s vs %s | n/a (not run) | n/a | n/a |\n", c.What, c.Policy, c.Against)
			continue
		}
		f("| %s | %s vs %s | %.1f%% vs %.1f%% | %.0f vs %.0f | %d vs %d |\n", c.What, c.Policy, c.Against,
			100*ratio(a.Wins, a.Games), 100*ratio(o.Wins, o.Games), a.TurnsMedian, o.TurnsMedian, a.Starved, o.Starved)
	}
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// varietyLine is one line of a Variety.
func varietyLine(v Variety) string {
	if !v.Known {
		return "n/a (the game reports none)"
	}
	return fmt.Sprintf("%d different sets in %d seeds; mean Jaccard distance between two seeds %.2f; %.1f a seed (%d–%d)",
		v.Distinct, v.Seeds, v.Jaccard, v.MeanSize, v.MinSize, v.MaxSize)
}
